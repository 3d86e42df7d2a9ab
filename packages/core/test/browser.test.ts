import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
import { CORPUS_DIR, REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundleForBrowser } from './browser/bundle-for-browser.ts';
import { normalizeText } from './support.ts';

/** What the page may fetch, by URL path. */
const RECORDINGS: Record<string, string> = {
  '/recordings/docs-example-zh.ndjson': join(CORPUS_DIR, 'official/docs-example-zh.ndjson'),
  '/recordings/raw-newline-call-id.ndjson': join(CORPUS_DIR, 'official/raw-newline-call-id.ndjson'),
  '/recordings/stored-records-and-wrapper-events.ndjson': join(
    CORPUS_DIR,
    'payload-envelope/stored-records-and-wrapper-events.ndjson',
  ),
  '/recordings/parallel-tools-out-of-order.ndjson': join(
    CORPUS_DIR,
    'official/parallel-tools-out-of-order.ndjson',
  ),
  // A real capture with hundreds of one-token thinking records, when the real recordings are beside the repository.
  ...Object.fromEntries(
    REAL_CORPUS.ndjsonFiles()
      .filter((file) => file.endsWith('experiments_direct-sleep.ndjson'))
      .map((file) => ['/recordings/direct-sleep.ndjson', file]),
  ),
};

/** The page's exports, as `page-entry.ts` defines them. */
interface PageCheck {
  normalizeUrl(url: string): Promise<CanonicalEvent[]>;
  countRecords(url: string): Promise<number>;
}

const PAGE_ENTRY = join(import.meta.dirname, 'browser/page-entry.ts');

/** Each entry the core's manifest exports, with its source file: a new entry is checked as it is added. */
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
  test('builds without any Node built-in', async () => {
    const bundle = await bundleForBrowser(PAGE_ENTRY);
    expect(bundle).toContain('NormalizerTransformStream');
    expect(bundle).not.toMatch(/from\s*["']node:/);
  });

  test.each(sourceEntries())('the %s entry builds without any Node built-in', async (_name, source) => {
    await expect(bundleForBrowser(source)).resolves.toEqual(expect.any(String));
  });

  test('fails when a Node built-in sneaks in, naming it', async () => {
    const entry = join(import.meta.dirname, 'browser/imports-node-builtin.ts');
    await expect(bundleForBrowser(entry)).rejects.toThrow(
      /Node built-in "node:fs"[\s\S]*Node built-in "path"/,
    );
  });
});

function serve(files: Record<string, { type: string; body: string | Buffer }>): Promise<Server> {
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://127.0.0.1').pathname];
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

failWithoutChromiumInCi('the browser check');

describe.skipIf(!hasChromium)(`in headless Chromium ${CHROMIUM_NEEDS}`, () => {
  let server: Server | undefined;
  let browser: ChromiumContext | undefined;
  let origin = '';

  beforeAll(async () => {
    const files: Record<string, { type: string; body: string | Buffer }> = {
      '/': {
        type: 'text/html; charset=utf-8',
        body: readFileSync(join(import.meta.dirname, 'browser/index.html')),
      },
      '/bundle.js': { type: 'text/javascript; charset=utf-8', body: await bundleForBrowser(PAGE_ENTRY) },
    };
    for (const [path, file] of Object.entries(RECORDINGS)) {
      files[path] = { type: 'application/x-ndjson', body: readFileSync(file) };
    }
    server = await serve(files);
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromiumContext();
  }, BROWSER_START_MS);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  });

  /** Opens the test page, runs `use` on it and closes it. */
  async function withPage<T>(use: (page: Page) => Promise<T>): Promise<T> {
    if (browser === undefined) throw new Error('The browser did not start.');
    const page = await browser.context.newPage();
    try {
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => document.title === 'ready');
      return await use(page);
    } finally {
      await page.close();
    }
  }

  for (const path of Object.keys(RECORDINGS)) {
    test(`${path} fetched and normalized in the page gives the same events as in Node`, async () => {
      const inBrowser = await withPage((page) =>
        page.evaluate((url) => (window as unknown as { check: PageCheck }).check.normalizeUrl(url), path),
      );
      const inNode = normalizeText(readFileSync(RECORDINGS[path] as string));
      expect(inBrowser.length).toBeGreaterThan(0);
      expect(inBrowser).toEqual(inNode);
    });
  }

  test('the bare tokenizer finds every record in the page', async () => {
    const path = '/recordings/docs-example-zh.ndjson';
    const records = await withPage((page) =>
      page.evaluate((url) => (window as unknown as { check: PageCheck }).check.countRecords(url), path),
    );
    const lines = readFileSync(RECORDINGS[path] as string, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(records).toBe(lines.length);
  });
});
