import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { reduceSessions } from '@cursor-stream/core';
import {
  BROWSER_START_MS,
  CHROMIUM_NEEDS,
  failWithoutChromiumInCi,
  hasChromium,
  launchChromium,
} from '@cursor-stream/test-kit/chromium';
import { REAL_CORPUS, REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeReport } from '../src/commands/report/run.ts';
import { sampleCalls, sessionLog } from './report-logs.ts';
import { fakeIo } from './support.ts';

/** Screenshots kept for people to look at (ignored by git). */
const ARTIFACTS = join(import.meta.dirname, 'artifacts');
const REAL_TOOLS_LOG = join(
  REAL_CORPUS.path,
  'LRM-Teams__coforge__packages_daemon_test_fixtures_cursor-turn-tools.ndjson',
);

failWithoutChromiumInCi('the report check');

async function writePage(paths: readonly string[], out: string, stdin: string[] = []): Promise<string> {
  const { io } = fakeIo(stdin);
  const parts: string[] = [];
  await writeReport(paths, { dialect: 'auto', stdin: io.stdin }, async (text) => {
    parts.push(text);
  });
  writeFileSync(out, parts.join(''));
  return pathToFileURL(out).href;
}

/** What a page did while it loaded: its console errors and every request besides the page itself. */
interface Visit {
  page: Page;
  consoleErrors: string[];
  requests: string[];
}

describe.skipIf(!hasChromium)(`the report in headless Chromium ${CHROMIUM_NEEDS}`, () => {
  let browser: Browser | undefined;
  let scratch = '';

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'cursor-stream-report-browser-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
  }, BROWSER_START_MS);

  afterAll(async () => {
    await browser?.close();
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  }, BROWSER_START_MS);

  async function visit(url: string, use: (visit: Visit) => Promise<void>, width = 1280): Promise<void> {
    if (browser === undefined) throw new Error('The browser did not start.');
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const seen: Visit = { page, consoleErrors: [], requests: [] };
    page.on('console', (message) => {
      if (message.type() === 'error') seen.consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => seen.consoleErrors.push(error.message));
    page.on('request', (request) => {
      if (request.url() !== url) seen.requests.push(request.url());
    });
    try {
      await page.goto(url, { waitUntil: 'load' });
      await use(seen);
    } finally {
      await page.close();
    }
  }

  test('a session with parallel calls, a failure and a script in an output: no error, no request, one bar per call', async () => {
    const log = sessionLog({
      sessionId: 'browser-run',
      model: 'Composer 2.5',
      calls: sampleCalls(),
      isError: true,
      resultText: 'The directory is missing, so I stopped.',
      usage: { inputTokens: 1200, outputTokens: 34 },
    });
    const url = await writePage(['-'], join(scratch, 'one.html'), [log]);
    await visit(url, async ({ page, consoleErrors, requests }) => {
      expect(await page.locator('.session .bar.tool').count()).toBe(3);
      expect(await page.locator('.session .bar.tool.failed').count()).toBe(1);
      expect(await page.locator('.session .bar.tool.failed').getAttribute('title')).toMatch(
        /^shell ls \/missing · failure/,
      );
      expect(await page.locator('.failure').textContent()).toContain(
        'The directory is missing, so I stopped.',
      );
      expect(await page.evaluate(() => (globalThis as { pwned?: boolean }).pwned)).toBeUndefined();
      await page.locator('details.value > summary', { hasText: 'output' }).last().click();
      const opened = page.locator('details.value[open] pre').last();
      expect(await opened.isVisible()).toBe(true);
      expect(await opened.textContent()).toContain('<script>window.pwned = true</script>');
      await page.screenshot({ path: join(ARTIFACTS, 'report-session.png'), fullPage: true });
      expect(consoleErrors).toEqual([]);
      expect(requests).toEqual([]);
    });
  });

  test('its policy runs the page’s own script and no other, with no console error from the page itself', async () => {
    const url = await writePage(['-'], join(scratch, 'policy.html'), [
      sessionLog({ sessionId: 'policy-run', calls: sampleCalls() }),
    ]);
    await visit(url, async ({ page, consoleErrors, requests }) => {
      expect(consoleErrors).toEqual([]);
      // A script added after the escaping (as a flaw in it would add one) is refused by the policy, not run.
      const ran = await page.evaluate(async () => {
        const document = (
          globalThis as unknown as {
            document: {
              createElement(tag: string): { textContent: string };
              body: { append(node: unknown): void };
            };
          }
        ).document;
        const script = document.createElement('script');
        script.textContent = 'globalThis.injected = true';
        document.body.append(script);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return (globalThis as { injected?: boolean }).injected;
      });
      expect(ran).toBeUndefined();
      expect(consoleErrors.some((error) => /Content Security Policy/.test(error))).toBe(true);
      expect(requests).toEqual([]);
    });
  });

  test.skipIf(!existsSync(REAL_TOOLS_LOG))(
    `a real recording: one bar per tool call${existsSync(REAL_TOOLS_LOG) ? '' : ' (skipped: ../shared/real-corpus is missing)'}`,
    async () => {
      const text = readFileSync(REAL_TOOLS_LOG, 'utf8');
      const { createNormalizer } = await import('@cursor-stream/core');
      const normalizer = createNormalizer();
      const [summary] = reduceSessions([...normalizer.feed(text), ...normalizer.end()]);
      const calls = summary?.toolCalls ?? [];
      const failed = calls.filter((call) => call.status !== 'success').length;
      expect(calls.length).toBeGreaterThan(4);
      const url = await writePage([REAL_TOOLS_LOG], join(scratch, 'real.html'));
      await visit(url, async ({ page, consoleErrors, requests }) => {
        expect(await page.locator('.bar.tool').count()).toBe(calls.length);
        expect(await page.locator('.bar.tool.failed').count()).toBe(failed);
        await page.screenshot({ path: join(ARTIFACTS, 'report-real-session.png'), fullPage: true });
        expect(consoleErrors).toEqual([]);
        expect(requests).toEqual([]);
      });
    },
  );

  test('several logs: the index lists every session and sorts by tokens', async () => {
    const logs = join(scratch, 'logs');
    mkdirSync(logs);
    const tokens = [500, 20, 9000];
    tokens.forEach((inputTokens, index) => {
      const log = sessionLog({
        sessionId: `run-${index}`,
        calls: sampleCalls(1_790_000_000_000 + index * 3_600_000),
        usage: { inputTokens },
      });
      writeFileSync(join(logs, `run-${index}.ndjson`), log);
    });
    const url = await writePage(
      [logs, join(REPO_ROOT, 'corpus/official/docs-example-zh.ndjson')],
      join(scratch, 'many.html'),
    );
    await visit(url, async ({ page, consoleErrors, requests }) => {
      const rows = page.locator('table.index tbody tr');
      expect(await rows.count()).toBe(3 + 1);
      await page.locator('table.index th', { hasText: 'Tokens' }).click();
      const sorted = await page
        .locator('table.index tbody tr td:nth-child(6)')
        .evaluateAll((cells) =>
          cells.map(
            (cell) =>
              (cell as unknown as { dataset: Record<string, string | undefined> }).dataset.value ?? '',
          ),
        );
      expect(sorted.slice(0, 3)).toEqual(['20', '500', '9000']);
      expect(sorted.slice(3).every((value) => value === '')).toBe(true); // sessions without usage last
      await page.screenshot({ path: join(ARTIFACTS, 'report-index.png') });
      expect(consoleErrors).toEqual([]);
      expect(requests).toEqual([]);
    });
  });

  describe('sessions named by their prompts, Markdown rendered, failed calls open', () => {
    const MARKDOWN = [
      '## Fixed',
      '',
      'The **parser** now keeps `line` numbers:',
      '',
      '- one',
      '- two',
      '',
      '```ts',
      'const answer = 1 < 2;',
      '```',
      '',
      '| file | lines |',
      '|:-----|------:|',
      '| a.ts | 12 |',
      '',
      '<img src="https://example.com/x.png"> ![logo](https://example.com/logo.png)',
    ].join('\n');
    const PROMPTS = ['Fix the parser of dates', 'Add a cache to the loader', 'Write the release notes'];
    let url = '';

    beforeAll(async () => {
      const logs = join(scratch, 'prompts');
      mkdirSync(logs);
      PROMPTS.forEach((prompt, index) => {
        const log = sessionLog({
          sessionId: `prompt-${index}`,
          prompt,
          model: index === 1 ? 'Claude 4.6 Sonnet' : 'Composer 2.5',
          text: MARKDOWN,
          calls: sampleCalls(1_780_000_000_000 + index * 3_600_000),
          isError: index === 1,
          usage: { inputTokens: 100 * (index + 1) },
        });
        writeFileSync(join(logs, `${index}.ndjson`), log);
      });
      url = await writePage([logs], join(scratch, 'prompts.html'));
    });

    for (const width of [390, 1280]) {
      test(`at ${width} px: readable without scrolling sideways, no console error, no request`, async () => {
        await visit(
          url,
          async ({ page, consoleErrors, requests }) => {
            // Newest first, each named by its prompt.
            const names = await page.locator('table.index td.sess a').allTextContents();
            expect(names).toEqual([...PROMPTS].reverse());
            // Markdown is rendered, raw HTML shown as text, images only links.
            const message = page.locator('.session .md').first();
            expect(await message.locator('h2').textContent()).toBe('Fixed');
            expect(await message.locator('strong').textContent()).toBe('parser');
            expect(await message.locator('li').count()).toBe(2);
            expect(await message.locator('pre code').textContent()).toBe('const answer = 1 < 2;\n');
            expect(await message.locator('td.align-right').textContent()).toBe('12');
            expect(await message.textContent()).toContain('<img src="https://example.com/x.png">');
            expect(await page.locator('.session img').count()).toBe(0);
            // A failed call's output is open; the others are shut.
            const failed = page.locator('.session').first().locator('details.value.failed');
            expect(await failed.getAttribute('open')).toBe('');
            expect(await failed.locator('pre').isVisible()).toBe(true);
            // The bars are placed by the page's script: a policy-refused style would leave them at 0.
            const bar = page.locator('.session .bar.tool').first();
            expect(
              await bar.evaluate((node) => (node as unknown as { style: { width: string } }).style.width),
            ).toMatch(/%$/);
            const overflow = await page.evaluate(() => {
              const root = (
                globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }
              ).document.documentElement;
              return root.scrollWidth;
            });
            expect(overflow).toBeLessThanOrEqual(width);
            await page.screenshot({ path: join(ARTIFACTS, `report-prompts-${width}.png`), fullPage: true });
            expect(consoleErrors).toEqual([]);
            expect(requests).toEqual([]);
          },
          width,
        );
      });
    }

    test('the search box keeps the sessions whose row holds every word', async () => {
      await visit(url, async ({ page, consoleErrors }) => {
        const rows = page.locator('table.index tbody tr');
        await page.locator('#search').fill('cache LOADER');
        expect(
          await rows.evaluateAll(
            (all) => all.filter((row) => !(row as unknown as { hidden: boolean }).hidden).length,
          ),
        ).toBe(1);
        expect(await page.locator('table.index tbody tr:not([hidden]) td.sess a').textContent()).toBe(
          PROMPTS[1],
        );
        expect(await page.locator('#found').textContent()).toBe('1 of 3');
        await page.locator('#search').fill('sonnet error');
        expect(await page.locator('table.index tbody tr:not([hidden]) td.sess a').allTextContents()).toEqual([
          PROMPTS[1],
        ]);
        await page.locator('#search').fill('');
        expect(await page.locator('table.index tbody tr:not([hidden])').count()).toBe(3);
        expect(consoleErrors).toEqual([]);
      });
    });
  });
});
