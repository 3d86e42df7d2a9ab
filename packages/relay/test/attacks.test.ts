import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { RunRecord } from '@cursor-stream/relay';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { eventsOf, readSse } from '@cursor-stream/test-kit/sse';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import {
  normalizeWithCli,
  postRun,
  rawExchange,
  rawRequest,
  runEnded,
  scratch,
  startServe,
  statusOf,
  UPGRADE_HEADERS,
} from './support.ts';

const space = scratch();
const TOKEN = 'a-long-secret-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const AUTH_HEADER = `Authorization: Bearer ${TOKEN}`;
/** A run whose record is there and whose log is not (deleted under the relay). */
const LOGLESS_RUN = '0000000aa-0123456789ab';

/** Closes of a WebSocket: the code, or -1 when it could not open. */
function closeOf(url: string, send?: (socket: WebSocket) => void): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers: AUTH });
    socket.on('open', () => send?.(socket));
    socket.on('close', (code) => resolve(code));
    socket.on('error', () => {});
    socket.on('unexpected-response', () => resolve(-1));
  });
}

/**
 * `cursor-stream serve` on every address with a token, a run in flight and a client following it, while requests
 * and upgrades that used to end the process arrive; after each, the server still answers, and at the end the run has
 * succeeded and its client got every event.
 */
describe('a token-protected server on every address', () => {
  let server: Awaited<ReturnType<typeof startServe>>;
  let url = '';
  let runId = '';
  let follower: ReturnType<typeof readSse>;

  beforeAll(async () => {
    const dataDir = join(space.dir, 'data');
    mkdirSync(join(dataDir, 'runs'), { recursive: true });
    const record: RunRecord = {
      runId: LOGLESS_RUN,
      chatId: null,
      status: 'succeeded',
      createdAt: new Date().toISOString(),
      endedAt: new Date().toISOString(),
      model: null,
      mode: null,
      title: 'its log was deleted',
      error: null,
    };
    writeFileSync(join(dataDir, 'runs', `${LOGLESS_RUN}.json`), JSON.stringify(record));
    server = await startServe(['--host', '0.0.0.0', '--data-dir', dataDir, '--agent', space.agent], {
      CURSOR_STREAM_TOKEN: TOKEN,
      FAKE_AGENT_REPLAY: DOCS_EXAMPLE,
      FAKE_AGENT_CHUNK_BYTES: '80',
      FAKE_AGENT_DELAY_MS: '250',
    });
    url = server.url.replace('0.0.0.0', '127.0.0.1');
    runId = await postRun(url, { prompt: 'Summarize README.md' }, AUTH);
    follower = readSse(`${url}/api/runs/${runId}/events`, { headers: AUTH });
  });
  afterAll(() => {
    server.child.kill('SIGTERM');
    space.remove();
  });

  async function stillAnswers(): Promise<void> {
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${url}/api/runs`, { headers: AUTH })).status).toBe(200);
  }

  test.each([
    { name: 'GET //[', method: 'GET', target: '//[', headers: [], status: 401 },
    { name: 'GET //[ with the token', method: 'GET', target: '//[', headers: [AUTH_HEADER], status: 400 },
    { name: 'GET /%zz with the token', method: 'GET', target: '/%zz', headers: [AUTH_HEADER], status: 400 },
    {
      name: 'an escape %zz in a query no route reads, with the token',
      method: 'GET',
      target: '/api/runs?x=%zz',
      headers: [AUTH_HEADER],
      status: 400,
    },
    {
      name: 'DELETE /api/runs with the token',
      method: 'DELETE',
      target: '/api/runs',
      headers: [AUTH_HEADER],
      status: 405,
    },
    { name: 'POST / (the page)', method: 'POST', target: '/', headers: ['Content-Length: 0'], status: 405 },
    { name: 'GET //[x', method: 'GET', target: '//[x', headers: [], status: 401 },
    {
      name: 'an absolute target that is no URL',
      method: 'GET',
      target: 'http://[/',
      headers: [],
      status: 400,
    },
    {
      name: 'an absolute target with the token',
      method: 'GET',
      target: 'http://[/api/runs',
      headers: [AUTH_HEADER],
      status: 400,
    },
    { name: 'an asterisk target', method: 'OPTIONS', target: '*', headers: [], status: 400 },
    {
      name: 'a run id %ZZ',
      method: 'GET',
      target: '/api/runs/%ZZ/events',
      headers: [AUTH_HEADER],
      status: 400,
    },
    {
      name: 'a run id cut in a character',
      method: 'GET',
      target: '/api/runs/%E0%A4%A/events',
      headers: [AUTH_HEADER],
      status: 400,
    },
    { name: 'a run id %', method: 'GET', target: '/api/runs/%', headers: [AUTH_HEADER], status: 400 },
    {
      name: 'a cancel of run id %',
      method: 'POST',
      target: '/api/runs/%/cancel',
      headers: [AUTH_HEADER, 'Content-Length: 0'],
      status: 400,
    },
    {
      name: 'a cookie cut in a character',
      method: 'GET',
      target: '/api/runs',
      headers: ['Cookie: cursor_stream_token=%E0%A4%A'],
      status: 401,
    },
    {
      name: 'a cookie %',
      method: 'GET',
      target: '/api/runs',
      headers: ['Cookie: a=b; cursor_stream_token=%'],
      status: 401,
    },
  ])('$name: $status, and the server goes on', async ({ method, target, headers, status }) => {
    const answer = await rawExchange(url, rawRequest(url, method, target, headers));
    expect(statusOf(answer)).toBe(status);
    expect(answer).toContain('"code"');
    await stillAnswers();
  });

  test.each([
    { name: '//[', target: '//[', headers: [], status: 401 },
    { name: '//[ with the token', target: '//[', headers: [AUTH_HEADER], status: 400 },
    { name: 'http://[/', target: 'http://[/', headers: [], status: 400 },
    { name: '%ZZ', target: '/api/runs/%ZZ/ws', headers: [], status: 401 },
    { name: '%ZZ with the token', target: '/api/runs/%ZZ/ws', headers: [AUTH_HEADER], status: 400 },
    { name: '%E0%A4%A with the token', target: '/api/runs/%E0%A4%A/ws', headers: [AUTH_HEADER], status: 400 },
    { name: '% with the token', target: '/api/runs/%/ws', headers: [AUTH_HEADER], status: 400 },
    {
      name: 'a run with a malformed cookie',
      target: `/api/runs/${LOGLESS_RUN}/ws`,
      headers: ['Cookie: cursor_stream_token=%E0%A4%A'],
      status: 401,
    },
  ])(
    'an upgrade to $name is answered $status on the socket, which is closed',
    async ({ target, headers, status }) => {
      const answer = await rawExchange(url, rawRequest(url, 'GET', target, [...UPGRADE_HEADERS, ...headers]));
      expect(statusOf(answer)).toBe(status);
      expect(answer).toContain('"code"');
      await stillAnswers();
    },
  );

  test.each([
    { name: 'the page', method: 'GET', target: '/', headers: [], status: 200, body: '<!doctype html>' },
    {
      name: 'the list',
      method: 'GET',
      target: '/api/runs',
      headers: [AUTH_HEADER],
      status: 200,
      body: '"runs"',
    },
    {
      name: 'the list without the token',
      method: 'GET',
      target: '/api/runs',
      headers: [],
      status: 401,
      body: '"unauthorized"',
    },
    {
      name: 'a malformed id',
      method: 'GET',
      target: '/api/runs/%ZZ',
      headers: [AUTH_HEADER],
      status: 400,
      body: '"code"',
    },
    {
      name: 'a run with a body',
      method: 'POST',
      target: '/api/runs',
      headers: [AUTH_HEADER, 'Content-Type: application/json', 'Content-Length: 14'],
      status: 400,
      body: '"upgrade-not-taken"',
    },
  ])(
    'a request to $name offering h2c (curl --http2, Java HttpClient) is answered as without the offer: $status',
    async ({ method, target, headers, status, body }) => {
      const offer = [
        'Connection: Upgrade, HTTP2-Settings',
        'Upgrade: h2c',
        'HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA',
      ];
      const request = rawRequest(url, method, target, [...offer, ...headers]);
      const answer = await rawExchange(url, method === 'POST' ? `${request}{"prompt":"x"}` : request);
      expect(statusOf(answer)).toBe(status);
      expect(answer).toContain(body);
      await stillAnswers();
    },
  );

  test('a request offering h2c pipelined behind another is answered after it, each as without the offer', async () => {
    const first = rawRequest(url, 'GET', '/app.js', ['Connection: keep-alive']);
    const second = rawRequest(url, 'GET', `/api/runs/${runId}`, [
      'Connection: Upgrade',
      'Upgrade: h2c',
      AUTH_HEADER,
    ]);
    const answer = await rawExchange(url, first + second);
    expect([...answer.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((match) => match[1])).toEqual(['200', '200']);
    expect(answer).toContain(`"runId":"${runId}"`);
    await stillAnswers();
  });

  test('clients that leave while their run summaries are made give their places back', async () => {
    const { hostname, port } = new URL(url);
    const request = rawRequest(url, 'GET', `/api/runs/${runId}`, [AUTH_HEADER]);
    // More than the summaries made at once (4), each connection gone as soon as its request is sent.
    for (let client = 0; client < 6; client += 1)
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), hostname, () => socket.end(request, () => socket.destroy()));
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const summary = await fetch(`${url}/api/runs/${runId}`, { headers: AUTH });
    expect(summary.status).toBe(200);
    await stillAnswers();
  });

  test('a run whose log is gone: SSE answers 500, WebSocket closes with 1011', async () => {
    const sse = await fetch(`${url}/api/runs/${LOGLESS_RUN}/events`, { headers: AUTH });
    expect(sse.status).toBe(500);
    expect(((await sse.json()) as { error: { code: string } }).error.code).toBe('internal');
    expect(await closeOf(`${url.replace('http', 'ws')}/api/runs/${LOGLESS_RUN}/ws`)).toBe(1011);
    await stillAnswers();
  });

  test('a subprotocol a WebSocket client offers is not named back: none is spoken', async () => {
    const request = rawRequest(url, 'GET', `/api/runs/${runId}/ws`, [
      ...UPGRADE_HEADERS,
      'Sec-WebSocket-Protocol: mqtt, graphql-ws',
      AUTH_HEADER,
    ]);
    const answer = await rawExchange(url, request, 1000);
    expect(statusOf(answer)).toBe(101);
    expect(answer.toLowerCase()).not.toContain('sec-websocket-protocol');
    await stillAnswers();
  });

  test('a WebSocket client breaking the protocol loses its socket, and only it', async () => {
    const ws = `${url.replace('http', 'ws')}/api/runs/${runId}/ws`;
    expect(await closeOf(ws, (socket) => socket.send('x'.repeat(100_000)))).toBe(1009);
    expect(await closeOf(ws, (socket) => socket.send(Buffer.from([0xff, 0xfe]), { binary: false }))).toBe(
      1007,
    );
    await stillAnswers();
  });

  test('the run in flight went on: it succeeded, and its client got every event', async () => {
    const { status, messages } = await follower;
    expect(status).toBe(200);
    expect(messages.at(-1)?.event).toBe('end');
    await runEnded(url, runId, AUTH);
    const summary = (await (await fetch(`${url}/api/runs/${runId}`, { headers: AUTH })).json()) as RunRecord;
    expect(summary.status).toBe('succeeded');
    const logged = await normalizeWithCli(join(space.dir, 'data/runs', `${runId}.ndjson`));
    expect(eventsOf(messages).map(({ event }) => event)).toEqual(logged);
    expect(server.stderr()).toMatch(/relay: .*ENOENT/);
    expect(server.child.exitCode).toBeNull();
  });
});
