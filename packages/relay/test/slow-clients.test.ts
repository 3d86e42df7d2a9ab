import { writeFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { CanonicalEvent } from '@cursor-stream/core';
import { RESUME_CLOSE_CODE } from '@cursor-stream/relay';
import { afterAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import {
  eventsOf,
  postRun,
  readSse,
  readSseToEnd,
  readWebSocket,
  scratch,
  startRelay,
  until,
} from './support.ts';

const space = scratch();
afterAll(() => space.remove());

/** A run of `count` assistant records of `bytes` of text each: far more than any socket buffer holds. */
function bigRecording(count: number, bytes: number): string {
  const path = join(space.dir, 'big.ndjson');
  const session = { session_id: 's-big' };
  const lines: object[] = [{ type: 'system', subtype: 'init', model: 'Auto', ...session }];
  for (let i = 0; i < count; i++) {
    const text = `${i}:${String.fromCharCode(97 + (i % 26)).repeat(bytes)}`;
    lines.push({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text }] },
      ...session,
    });
  }
  lines.push({ type: 'result', subtype: 'success', is_error: false, result: '', duration_ms: 1, ...session });
  writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return path;
}

/** An event as both transports carry it. */
type Received = { id: string; event: unknown };

/** A WebSocket client that reads nothing until `resume()`; then everything up to the close, and its code. */
function stoppedWebSocket(url: string) {
  const messages: Received[] = [];
  const socket = new WebSocket(url);
  const opened = new Promise<void>((resolve) => socket.once('open', () => resolve()));
  void opened.then(() => socket.pause());
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Received));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return { opened, messages, closed, resume: () => socket.resume() };
}

/** An SSE client that reads nothing until `resume()`; then the complete events it got before its stream ended. */
function stoppedSse(url: string) {
  let response: IncomingMessage | undefined;
  let text = '';
  const opened = new Promise<void>((resolve) => {
    get(url, (answer) => {
      response = answer;
      answer.pause();
      resolve();
    });
  });
  const closed = opened.then(
    () =>
      new Promise<Received[]>((resolve) => {
        const done = () => {
          // Only blocks ended by a blank line are events; a block cut off is dropped, as EventSource drops it.
          const blocks = text.split('\n\n').slice(0, -1);
          const events = blocks.flatMap((block) => {
            const id = /^id: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            return id === undefined || data === undefined ? [] : [{ id, event: JSON.parse(data) as unknown }];
          });
          resolve(events);
        };
        response?.setEncoding('utf8');
        response?.on('data', (chunk: string) => {
          text += chunk;
        });
        response?.on('end', done);
        response?.on('error', done);
        response?.on('aborted', done);
      }),
  );
  return { opened, closed, resume: () => response?.resume() };
}

describe('clients that stop reading', () => {
  test('are closed once they take nothing for stallMs, holding at most their bound, and resume losing nothing', async () => {
    const { relay, url, lines } = await startRelay({
      dataDir: join(space.dir, 'data'),
      agent: {
        binary: space.agent,
        env: {
          FAKE_AGENT_REPLAY: bigRecording(6, 2 * 1024 * 1024),
          FAKE_AGENT_CHUNK_BYTES: String(1024 * 1024),
          FAKE_AGENT_DELAY_MS: '10',
        },
      },
      // The grace outlasts the wait for all twenty to stall on a busy machine, so that each can still read its close.
      clientQueue: { maxBytes: 256 * 1024, stallMs: 1500, closeGraceMs: 120_000 },
    });
    try {
      const runId = await postRun(url, { prompt: 'big' });
      const ws = url.replace('http', 'ws');
      const sockets = Array.from({ length: 12 }, () => stoppedWebSocket(`${ws}/api/runs/${runId}/ws`));
      const streams = Array.from({ length: 8 }, () => stoppedSse(`${url}/api/runs/${runId}/events`));
      await Promise.all([...sockets, ...streams].map((client) => client.opened));

      const stalled = () => lines.filter((line) => line.includes('took nothing for too long')).length;
      await until(() => stalled() === 20, 'every client to be closed as stalled', 60_000);
      for (const client of [...sockets, ...streams]) client.resume();

      const all = eventsOf(await readSseToEnd(`${url}/api/runs/${runId}/events`));
      const expected: Received[] = all.map(({ id, event }) => ({ id, event }));
      expect(expected.filter(({ event }) => (event as CanonicalEvent).type === 'text-delta')).toHaveLength(6);

      const codes: number[] = [];
      for (const socket of sockets) {
        const code = await socket.closed;
        codes.push(code);
        // Closed with the code that says "resume" (or cut off, if it did not read even that in time): it resumes
        // after the last complete message it has, and has every event once.
        expect([RESUME_CLOSE_CODE, 1006]).toContain(code);
        const last = socket.messages.at(-1)?.id;
        const rest = await readWebSocket(
          `${ws}/api/runs/${runId}/ws${last === undefined ? '' : `?after=${last}`}`,
        );
        expect([...socket.messages, ...rest]).toEqual(expected);
        expect(socket.messages.length).toBeLessThan(expected.length);
      }
      expect(codes).toContain(RESUME_CLOSE_CODE);
      for (const stream of streams) {
        const before = await stream.closed;
        const last = before.at(-1)?.id;
        const rest = eventsOf(
          (
            await readSse(`${url}/api/runs/${runId}/events`, {
              headers: last === undefined ? {} : { 'last-event-id': last },
            })
          ).messages,
        );
        expect([...before, ...rest]).toEqual(expected);
        expect(before.length).toBeLessThan(expected.length);
      }
    } finally {
      await relay.close();
    }
  }, 120_000);
});
