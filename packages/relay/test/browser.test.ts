import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CanonicalEvent } from '@cursor-stream/core';
import {
  BROWSER_START_MS,
  CHROMIUM_NEEDS,
  type ChromiumContext,
  failWithoutChromiumInCi,
  hasChromium,
  launchChromiumContext,
} from '@cursor-stream/test-kit/chromium';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { freePort } from '@cursor-stream/test-kit/free-port';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { normalizeWithCli, scratch, startServe } from './support.ts';

/** Where the screenshot is left for people to look at (ignored by git). */
const ARTIFACTS = join(import.meta.dirname, 'artifacts');

failWithoutChromiumInCi('the live page check');

describe.skipIf(!hasChromium)(`the live page in headless Chromium ${CHROMIUM_NEEDS}`, () => {
  const space = scratch();
  let browser: ChromiumContext | undefined;

  beforeAll(async () => {
    browser = await launchChromiumContext();
  }, BROWSER_START_MS);
  afterAll(async () => {
    await browser?.close();
    space.remove();
  });

  async function submit(page: Page, prompt: string): Promise<void> {
    await page.fill('#prompt', prompt);
    await page.click('#send');
  }

  test('runs a prompt, shows the transcript and tool calls, and resumes across a server restart', async () => {
    if (browser === undefined) throw new Error('the browser did not start');
    const port = String(await freePort());
    const dataDir = join(space.dir, 'data');
    const args = ['--port', port, '--data-dir', dataDir, '--agent', space.agent];
    const slow = {
      FAKE_AGENT_REPLAY: DOCS_EXAMPLE,
      FAKE_AGENT_CHUNK_BYTES: '100',
      FAKE_AGENT_DELAY_MS: '200',
    };
    let server = await startServe(args, slow);
    const page = await browser.context.newPage();
    try {
      await page.goto(server.url.replace(/:\d+$/, `:${port}`));
      await submit(page, 'Summarize README.md');
      // The first tool call completes while the run goes on; then the server dies.
      await page.waitForSelector('.tool[data-state=done]', { timeout: 20_000 });
      const runId = (await page.evaluate(() => window.location.hash)).replace('#run=', '');
      server.child.kill('SIGKILL');
      await new Promise((resolve) => server.child.once('close', resolve));
      await page.waitForSelector('#connection[data-state=reconnecting]', { timeout: 10_000 });
      // The page says the stream is lost and where it will resume, then that it resumed.
      expect(await page.locator('#resume-banner[data-state=reconnecting]').textContent()).toMatch(
        /^Connection lost\. Reconnecting; the run resumes after event \S+, the last one shown\.$/,
      );
      server = await startServe(args, slow);
      await page.waitForSelector('#resume-banner[data-state=resumed]', { timeout: 20_000 });

      // The page comes back by itself, resumes after its last id, and shows why the run ended.
      const ending = await page.waitForSelector('.ending', { timeout: 20_000 });
      expect(await ending.textContent()).toBe(
        'failed: The relay stopped while the run was in flight; its log ends here.',
      );
      const logged = await normalizeWithCli(join(dataDir, 'runs', `${runId}.ndjson`));
      const text = (events: readonly CanonicalEvent[]) =>
        events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
      const shown = await page.$$eval('#transcript .text', (nodes) =>
        nodes.map((node) => node.textContent).join(''),
      );
      expect(shown).toBe(text(logged));
      expect(await page.locator('.tool').count()).toBe(
        logged.filter((event) => event.type === 'tool-call').length,
      );

      // A new run on the restarted server completes, every tool call done.
      await page.uncheck('#continue');
      await submit(page, 'Summarize README.md again');
      await page.waitForSelector('.ending[data-state=succeeded]', { timeout: 30_000 });
      expect(await page.locator('.tool[data-state=done]').count()).toBe(2);
      expect(
        await page.$$eval('#transcript .text', (nodes) => nodes.map((node) => node.textContent).join('')),
      ).toBe('我會閱讀 README.md 檔案並建立摘要');
      expect(await page.locator('#runs li').count()).toBe(2);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'live-page.png'), fullPage: true });
    } finally {
      await page.close();
      server.child.kill('SIGTERM');
    }
  });
});
