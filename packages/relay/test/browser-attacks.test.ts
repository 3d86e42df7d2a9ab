import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import {
  BROWSER_START_MS,
  CHROMIUM_NEEDS,
  type ChromiumContext,
  failWithoutChromiumInCi,
  hasChromium,
  launchChromiumContext,
} from '@cursor-stream/test-kit/chromium';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { readSse } from '@cursor-stream/test-kit/sse';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postRun, runEnded, scratch, startServe } from './support.ts';

failWithoutChromiumInCi('the attacks from a web page');

/** A page of another origin: any site the user has open while the relay runs. */
function elsewhere(): Promise<{ server: Server; url: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>another site</title><p>nothing to see</p>');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        server,
        url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/`,
      });
    });
  });
}

describe.skipIf(!hasChromium)(`a page of another origin in headless Chromium ${CHROMIUM_NEEDS}`, () => {
  const space = scratch();
  let browser: ChromiumContext | undefined;
  let relay: Awaited<ReturnType<typeof startServe>>;
  let site: { server: Server; url: string };
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromiumContext();
    relay = await startServe(['--data-dir', join(space.dir, 'data'), '--agent', space.agent], {
      FAKE_AGENT_REPLAY: DOCS_EXAMPLE,
      FAKE_AGENT_CHUNK_BYTES: '100',
      FAKE_AGENT_DELAY_MS: '100',
    });
    site = await elsewhere();
    page = await browser.context.newPage();
    await page.goto(site.url);
  }, BROWSER_START_MS);
  afterAll(async () => {
    await browser?.close();
    relay.child.kill('SIGTERM');
    site.server.close();
    space.remove();
  });

  async function stillAnswers(): Promise<void> {
    expect(relay.child.exitCode).toBeNull();
    expect((await fetch(`${relay.url}/api/runs`)).status).toBe(200);
  }

  test.each([
    [
      'an image at //[x',
      (base: string) =>
        `new Promise((done) => { const image = new Image(); image.onload = image.onerror = () => done('loaded'); image.src = '${base}//[x'; })`,
    ],
    [
      'a no-cors fetch of //[',
      (base: string) => `fetch('${base}//[', { mode: 'no-cors' }).then(() => 'answered', () => 'failed')`,
    ],
    [
      'a no-cors fetch of a run id cut in a character',
      (base: string) =>
        `fetch('${base}/api/runs/%E0%A4%A/events', { mode: 'no-cors' }).then(() => 'answered', () => 'failed')`,
    ],
    [
      'a WebSocket to run id %ZZ',
      (base: string) =>
        `new Promise((done) => { const socket = new WebSocket('${base.replace('http', 'ws')}/api/runs/%ZZ/ws'); socket.onclose = () => done('closed'); })`,
    ],
    [
      'a WebSocket to run id %',
      (base: string) =>
        `new Promise((done) => { const socket = new WebSocket('${base.replace('http', 'ws')}/api/runs/%/ws'); socket.onclose = () => done('closed'); })`,
    ],
  ])('%s: the relay goes on', async (_name, script) => {
    const runId = await postRun(relay.url, { prompt: 'in flight' });
    const following = readSse(`${relay.url}/api/runs/${runId}/events`);
    expect(await page.evaluate(script(relay.url))).toMatch(/loaded|answered|failed|closed/);
    await stillAnswers();
    // The run in flight, and its client, went on to the end.
    expect((await following).messages.at(-1)?.event).toBe('end');
    await runEnded(relay.url, runId);
    const record = (await (await fetch(`${relay.url}/api/runs/${runId}`)).json()) as { status: string };
    expect(record.status).toBe('succeeded');
  });
});
