/**
 * The views run in browsers: every entry bundles for the browser without a Node built-in, and in headless Chromium a
 * recording's transcript and report page come out exactly as in Node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BROWSER_START_MS,
  CHROMIUM_NEEDS,
  type ChromiumContext,
  failWithoutChromiumInCi,
  hasChromium,
  launchChromiumContext,
} from '@cursor-stream/test-kit/chromium';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundleForBrowser } from '../../core/test/browser/bundle-for-browser.ts';
import { type Views, viewsOf } from './browser/views-of.ts';

/** Recordings whose views are compared: text and tool calls, and reasoning, statuses and a failure. */
const RECORDINGS = [
  'official/docs-example-zh.ndjson',
  'official/parallel-tools-out-of-order.ndjson',
  'official/event-reference-session.ndjson',
];

/** Each entry the package's manifest exports, with its source file: a new entry is checked as it is added. */
function sourceEntries(): [string, string][] {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../package.json'), 'utf8')) as {
    exports: Record<string, string | { '@cursor-stream/source'?: string }>;
  };
  return Object.entries(manifest.exports).flatMap(([name, target]) =>
    typeof target === 'object' && target['@cursor-stream/source'] !== undefined
      ? [[name, join(import.meta.dirname, '..', target['@cursor-stream/source'])]]
      : [],
  );
}

describe('the browser bundle', () => {
  test('the package has an entry per view', () => {
    expect(sourceEntries().map(([name]) => name)).toEqual([
      './terminal',
      './transcript',
      './summary',
      './foreign-logs',
      './report',
      './usage',
      './usage-grouping',
      './census',
      './validate',
      './markdown',
    ]);
  });

  test.each(sourceEntries())('the %s entry builds without any Node built-in', async (_name, source) => {
    await expect(bundleForBrowser(source)).resolves.toEqual(expect.any(String));
  });
});

failWithoutChromiumInCi('the views browser check');

describe.skipIf(!hasChromium)(`in headless Chromium ${CHROMIUM_NEEDS}`, () => {
  let browser: ChromiumContext | undefined;
  let bundle = '';

  beforeAll(async () => {
    bundle = await bundleForBrowser(join(import.meta.dirname, 'browser/page-entry.ts'));
    browser = await launchChromiumContext();
  }, BROWSER_START_MS);

  afterAll(async () => {
    await browser?.close();
  });

  test.each(RECORDINGS)(
    '%s: the transcript and the report made in the page are those made in Node',
    async (file) => {
      const context = browser?.context;
      if (context === undefined) throw new Error('The browser did not start.');
      const text = readFileSync(join(CORPUS_DIR, file), 'utf8');
      const page = await context.newPage();
      try {
        await page.addScriptTag({ content: bundle, type: 'module' });
        await page.waitForFunction(() => 'check' in globalThis);
        const inBrowser = await page.evaluate(
          ([name, log]) =>
            (
              globalThis as unknown as { check: { viewsOf(name: string, text: string): Views } }
            ).check.viewsOf(name, log),
          [file, text] as const,
        );
        const inNode = viewsOf(file, text);
        expect(inNode.transcript).toContain('✓ done');
        expect(inNode.report).toContain('<section class="session ');
        expect(inBrowser).toEqual(inNode);
      } finally {
        await page.close();
      }
    },
  );
});
