import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  BROWSER_START_MS,
  CHROMIUM_NEEDS,
  type ChromiumContext,
  failWithoutChromiumInCi,
  hasChromium,
  launchChromiumContext,
} from '@cursor-stream/test-kit/chromium';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { normalizeWithCli, postRun, runEnded, scratch, startServe } from './support.ts';

/** Where the screenshots are left for people to look at (ignored by git). */
const ARTIFACTS = join(import.meta.dirname, 'artifacts');
/** A run with Markdown, a failed and two successful tool calls, and its usage: Composer 2.5 tokens. */
const MARKDOWN_RUN = join(import.meta.dirname, 'fixtures/markdown-run.ndjson');

/** Its cost worked out by hand from the price table: 9,681 x 0.5 + 1,000 x 2.5 + 56,018 x 0.2 per million. */
const EXPECTED_COST = `$${((9681 * 0.5 + 1000 * 2.5 + 56018 * 0.2) / 1e6).toFixed(4)} at Composer 2.5 prices`;

/** How much of a screenshot is drawn: its distinct colours, and the share of pixels unlike its top-left one. */
async function inkOf(checker: Page, png: Buffer): Promise<{ colors: number; inked: number }> {
  return checker.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d');
    if (context === null) return { colors: 0, inked: 0 };
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    const colors = new Set<number>();
    let inked = 0;
    for (let at = 0; at < pixels.length; at += 4) {
      const color = ((pixels[at] ?? 0) << 16) | ((pixels[at + 1] ?? 0) << 8) | (pixels[at + 2] ?? 0);
      colors.add(color);
      if (color !== (((pixels[0] ?? 0) << 16) | ((pixels[1] ?? 0) << 8) | (pixels[2] ?? 0))) inked += 1;
    }
    return { colors: colors.size, inked: inked / (pixels.length / 4) };
  }, png.toString('base64'));
}

failWithoutChromiumInCi("the live page's run controls");

describe.skipIf(!hasChromium)(`the live page's run controls in headless Chromium ${CHROMIUM_NEEDS}`, () => {
  const space = scratch();
  let browser: ChromiumContext | undefined;
  let server: Awaited<ReturnType<typeof startServe>> | undefined;
  const consoleErrors: string[] = [];
  const foreignRequests: string[] = [];

  beforeAll(async () => {
    browser = await launchChromiumContext();
    server = await startServe(['--data-dir', join(space.dir, 'data'), '--agent', space.agent], {
      FAKE_AGENT_REPLAY: MARKDOWN_RUN,
      FAKE_AGENT_CHUNK_BYTES: '120',
      FAKE_AGENT_DELAY_MS: '150',
    });
  }, BROWSER_START_MS);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await browser?.close();
    space.remove();
  });

  async function openPage(): Promise<Page> {
    if (browser === undefined || server === undefined)
      throw new Error('the browser or the relay did not start');
    const page = await browser.context.newPage();
    const origin = new URL(server.url).origin;
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('request', (request) => {
      if (!request.url().startsWith(`${origin}/`)) foreignRequests.push(request.url());
    });
    await page.goto(server.url);
    return page;
  }

  async function submit(page: Page, prompt: string): Promise<string> {
    await page.fill('#prompt', prompt);
    await page.click('#send');
    await page.waitForFunction(() => window.location.hash.startsWith('#run='));
    return (await page.evaluate(() => window.location.hash)).replace('#run=', '');
  }

  test('the Stop button cancels the run through the API and the page says it was cancelled', async () => {
    const page = await openPage();
    try {
      await expect(page.locator('#stop').isHidden()).resolves.toBe(true);
      const runId = await submit(page, 'Fix the failing test');
      await page.waitForSelector('#run-status[data-status=running]');
      await page.waitForSelector('#stop:not([hidden])');
      await page.waitForSelector('.item.prompt');
      await page.click('#stop');
      await page.waitForSelector('#run-status[data-status=cancelled]', { timeout: 20_000 });
      await page.waitForSelector('.ending');
      expect(await page.locator('#stop').isHidden()).toBe(true);
      const record = (await (await fetch(`${server?.url}/api/runs/${runId}`)).json()) as { status: string };
      expect(record.status).toBe('cancelled');
      // Stopped before its end: the run's result, and so its usage, never came.
      expect(await page.locator('.ending[data-state=succeeded]').count()).toBe(0);
      await page.waitForSelector(`#runs li[data-status=cancelled] a[href="#run=${runId}"]`);
    } finally {
      await page.close();
    }
  });

  test('a reload mid-run resumes it; the ended run shows Markdown, tool cards, usage and cost', async () => {
    const page = await openPage();
    try {
      await page.uncheck('#continue');
      const runId = await submit(page, 'Fix the failing test and tell me what changed');
      await page.waitForSelector('.item.tool');
      expect(await page.locator('.ending').count()).toBe(0);
      await page.reload();
      await page.waitForSelector('#run-status[data-status=running], #run-status[data-status=succeeded]');
      await page.waitForSelector('.ending[data-state=succeeded]', { timeout: 30_000 });
      await page.waitForSelector('#run-status[data-status=succeeded]');

      // The whole run is there once: as many tool cards as the log has calls, the failed one open.
      const logged = await normalizeWithCli(join(space.dir, 'data', 'runs', `${runId}.ndjson`));
      const calls = logged.filter((event) => event.type === 'tool-call').length;
      expect(calls).toBe(3);
      expect(await page.locator('.tool').count()).toBe(calls);
      expect(await page.locator('.tool[data-state=done]').count()).toBe(2);
      expect(await page.locator('.tool[data-state=failed][open]').count()).toBe(1);
      expect(await page.locator('.tool[data-state=failed] .tool-error').textContent()).toContain(
        'expected 3, got 2',
      );
      expect(await page.locator('.tool[data-state=done]:not([open])').count()).toBe(2);

      // Markdown rendered; the log's HTML, script link and image shown as text and a link.
      expect(await page.locator('#transcript .text h2').textContent()).toBe('Fixed');
      expect(await page.locator('#transcript .text pre code').textContent()).toBe(
        'for (let i = 0; i < n; i++) yield i;\n',
      );
      expect(await page.locator('#transcript .text li').count()).toBe(2);
      expect(await page.locator('#transcript script, #transcript img').count()).toBe(0);
      expect(await page.locator('#transcript a[href^="javascript"]').count()).toBe(0);
      expect(await page.locator('#transcript .text').last().textContent()).toContain(
        '<script>document.title = "pwned"</script>',
      );
      expect(await page.title()).toBe('cursor-stream');
      // A bidi override in the log's text, reasoning and tool error is shown escaped: names read in their stored order.
      const shown = (await page.locator('#transcript').textContent()) ?? '';
      expect(shown).not.toContain('\u202e');
      expect(shown).toContain('invoice\\u202efdp.exe');
      expect(shown).toContain('cannot remove \\u202efdp.exe');
      expect(shown).toContain('report\\u202etxt.sh');

      expect(await page.locator('#run-usage .tokens').textContent()).toBe(
        '9,681 in · 1,000 out · 56,018 cache read · 0 cache write',
      );
      expect(await page.locator('#run-usage .cost').textContent()).toBe(EXPECTED_COST);
      expect(await page.locator('#stop').isHidden()).toBe(true);

      mkdirSync(ARTIFACTS, { recursive: true });
      const checker = await browser?.context.newPage();
      if (checker === undefined) throw new Error('no page to check the screenshots in');
      try {
        for (const [width, height] of [
          [1280, 900],
          [390, 844],
        ] as const) {
          await page.setViewportSize({ width, height });
          const png = await page.screenshot({
            path: join(ARTIFACTS, `live-page-${width}.png`),
            fullPage: true,
          });
          const ink = await inkOf(checker, png);
          expect(ink.colors).toBeGreaterThan(50);
          expect(ink.inked).toBeGreaterThan(0.05);
          // Nothing wider than the window: no sideways scrolling on a phone.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        }
      } finally {
        await checker.close();
      }
      expect(consoleErrors).toEqual([]);
      expect(foreignRequests).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test('a stream cut between a finished run’s last event and its end is found over, not asked for every second', async () => {
    if (browser === undefined || server === undefined)
      throw new Error('the browser or the relay did not start');
    const runId = await postRun(server.url, { prompt: 'Fix the failing test' });
    await runEnded(server.url, runId);
    const page = await browser.context.newPage();
    const streams: string[] = [];
    let cut = false;
    // The first stream loses its `end` (as a restart or a proxy would cut it); every later request goes to the relay.
    await page.route('**/events*', async (route) => {
      streams.push(route.request().url());
      if (cut) return route.continue();
      cut = true;
      const response = await route.fetch();
      const body = (await response.text()).replace(/event: end[\s\S]*$/, '');
      return route.fulfill({ response, body });
    });
    try {
      await page.goto(`${server.url}/#run=${runId}`);
      await page.waitForSelector('#connection[data-state=ended]', { timeout: 20_000 });
      await page.waitForSelector('.ending[data-state=succeeded]');
      const asked = streams.length;
      await page.waitForTimeout(3_000);
      expect(streams.length).toBe(asked);
      expect(await page.locator('#resume-banner').isHidden()).toBe(true);
    } finally {
      await page.close();
    }
  });

  test('the page, its script and its style sheet are served under a policy with nothing inline', async () => {
    for (const path of ['/', '/app.js', '/app.css', '/icon.svg']) {
      const response = await fetch(`${server?.url}${path}`);
      expect(response.status).toBe(200);
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).toContain("base-uri 'none'");
      expect(policy).toContain("form-action 'none'");
    }
    const html = await (await fetch(`${server?.url}/`)).text();
    expect(html).not.toMatch(/<style|\sstyle=|<script>/);
  });
});
