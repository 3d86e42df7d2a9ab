import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createRelayServer, RelayConfigError } from '@cursor-stream/relay';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { eventsOf, readSse } from '@cursor-stream/test-kit/sse';
import { afterAll, describe, expect, test } from 'vitest';
import {
  normalizeWithCli,
  postRun,
  rawExchange,
  rawRequest,
  runEnded,
  scratch,
  startRelay,
  statusOf,
  UPGRADE_HEADERS,
  until,
} from './support.ts';

const space = scratch();
afterAll(() => space.remove());

async function errorOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe('caps on runs in flight and on open streams', () => {
  test('a run past maxRuns gets 429, a stream past maxConnections 503, each with a code; both free up', async () => {
    const { relay, url } = await startRelay({
      dataDir: join(space.dir, 'caps'),
      // The agent writes its recording, then hangs until it is cancelled: a run that stays in flight.
      agent: {
        binary: space.agent,
        env: { FAKE_AGENT_REPLAY: DOCS_EXAMPLE, FAKE_AGENT_HANG: 'after' },
        killGraceMs: 200,
      },
      maxRuns: 1,
      maxConnections: 1,
    });
    try {
      const runId = await postRun(url, { prompt: 'stays' });
      const post = () =>
        fetch(`${url}/api/runs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ prompt: 'one more' }),
        });
      const refusedRun = await post();
      expect(refusedRun.status).toBe(429);
      expect(refusedRun.headers.get('retry-after')).toBe('5');
      expect(await errorOf(refusedRun)).toBe('too-many-runs');

      const leave = new AbortController();
      const open = await fetch(`${url}/api/runs/${runId}/events`, { signal: leave.signal });
      expect(open.status).toBe(200);
      const refusedStream = await fetch(`${url}/api/runs/${runId}/events`);
      expect(refusedStream.status).toBe(503);
      expect(await errorOf(refusedStream)).toBe('too-many-connections');
      const upgrade = await rawExchange(
        url,
        rawRequest(url, 'GET', `/api/runs/${runId}/ws`, UPGRADE_HEADERS),
      );
      expect(statusOf(upgrade)).toBe(503);
      expect(upgrade).toContain('"too-many-connections"');

      // A stream that closes frees its place; a run that ends frees its own.
      leave.abort();
      await until(async () => {
        const again = new AbortController();
        const status = (await fetch(`${url}/api/runs/${runId}/events`, { signal: again.signal })).status;
        again.abort();
        return status === 200;
      }, 'a free connection');
      expect((await fetch(`${url}/api/runs/${runId}/cancel`, { method: 'POST' })).status).toBe(202);
      await runEnded(url, runId);
      expect((await post()).status).toBe(201);
    } finally {
      await relay.close();
    }
  });
});

describe("a run's output waiting to be written", () => {
  test.each(['maxRuns', 'maxConnections', 'maxPendingBytes', 'requestTimeoutMs'])(
    '%s must be a positive integer',
    (name) => {
      for (const value of [0, -1, 1.5, Number.NaN]) {
        const start = () => createRelayServer({ dataDir: join(space.dir, 'limits'), [name]: value });
        expect(start).toThrow(RelayConfigError);
        expect(start).toThrow(`${name} must be a positive integer`);
      }
    },
  );

  test('within maxPendingBytes of one byte, held back at every chunk, the run still gives every event', async () => {
    const dataDir = join(space.dir, 'pending');
    const { relay, url } = await startRelay({
      dataDir,
      agent: { binary: space.agent, env: { FAKE_AGENT_REPLAY: DOCS_EXAMPLE } },
      maxPendingBytes: 1,
    });
    try {
      const runId = await postRun(url, { prompt: 'held back' });
      const { messages } = await readSse(`${url}/api/runs/${runId}/events`);
      await runEnded(url, runId);
      const log = join(dataDir, 'runs', `${runId}.ndjson`);
      expect(readFileSync(log)).toEqual(readFileSync(DOCS_EXAMPLE));
      expect(eventsOf(messages).map(({ event }) => event)).toEqual(await normalizeWithCli(log));
    } finally {
      await relay.close();
    }
  });
});

describe('the listening server', () => {
  test('an error it meets once listening (a connection it could not accept) is one log line', async () => {
    const { relay, url, lines } = await startRelay({ dataDir: join(space.dir, 'server-error') });
    try {
      const accept = Object.assign(new Error('accept EMFILE'), { code: 'EMFILE' });
      expect(() => relay.server.emit('error', accept)).not.toThrow();
      expect(lines).toContain('relay: Error: accept EMFILE');
      expect((await fetch(`${url}/api/runs`)).status).toBe(200);
    } finally {
      await relay.close();
    }
  });
});

describe('caps on requests that hold memory while they last', () => {
  test('summaries their clients do not take keep their places until taken or cut off; a silent connection is closed', async () => {
    // A run whose summary is larger than the socket buffers on both ends hold: a client that reads none of it leaves
    // most of it in the relay.
    const recording = join(space.dir, 'large-result.ndjson');
    const session = { session_id: 's-large' };
    writeFileSync(
      recording,
      `${[
        { type: 'system', subtype: 'init', model: 'Auto', ...session },
        {
          type: 'result',
          subtype: 'success',
          is_error: false,
          result: 'r'.repeat(24 * 1024 * 1024),
          ...session,
        },
      ]
        .map((record) => JSON.stringify(record))
        .join('\n')}\n`,
    );
    const { relay, url } = await startRelay({
      dataDir: join(space.dir, 'summaries'),
      agent: { binary: space.agent, env: { FAKE_AGENT_REPLAY: recording } },
      // Long enough that a loaded machine stalls the four clients before the first of them is cut off.
      requestTimeoutMs: 3000,
    });
    const { hostname, port } = new URL(url);
    const sockets: Socket[] = [];
    const open = () => {
      const socket = connect({ host: hostname, port: Number(port) });
      socket.on('error', () => {});
      sockets.push(socket);
      return socket;
    };
    try {
      const runId = await postRun(url, { prompt: 'large' });
      await runEnded(url, runId);
      for (let index = 0; index < 4; index++) {
        const socket = open();
        await once(socket, 'connect');
        socket.write(rawRequest(url, 'GET', `/api/runs/${runId}`, []));
        // Its summary is written once it begins to come; then the client reads no more.
        await once(socket, 'data');
        socket.pause();
      }
      // Each stalled client holds its summary's place: the next is refused rather than another summary held.
      const refused = await fetch(`${url}/api/runs/${runId}`);
      expect([refused.status, await errorOf(refused)]).toEqual([503, 'busy']);
      // Cut off once they have had four request timeouts to take it; their places come back.
      let answered: { status: string } | undefined;
      await until(
        async () => {
          const response = await fetch(`${url}/api/runs/${runId}`);
          if (response.status !== 200) await response.arrayBuffer();
          else answered = (await response.json()) as { status: string };
          return answered !== undefined;
        },
        'the places freed',
        60_000,
      );
      expect(answered?.status).toBe('succeeded');
      // A connection that never sends a byte has the request timeout to begin, then is closed.
      const silent = open();
      const started = Date.now();
      await once(silent, 'close');
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await relay.close();
    }
  }, 120_000);

  test("a body that trickles is answered 408 once the request timeout has passed, not at the next of Node's checks", async () => {
    const { relay, url } = await startRelay({ dataDir: join(space.dir, 'trickle'), requestTimeoutMs: 1000 });
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port) });
    socket.on('error', () => {});
    const sending = setInterval(() => socket.write(' '), 200);
    try {
      await once(socket, 'connect');
      socket.write(
        `POST /api/runs HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
      );
      const started = Date.now();
      const [answer] = (await once(socket, 'data')) as [Buffer];
      expect(statusOf(answer.toString())).toBe(408);
      // Node checks its timeouts every 30 s by default: the answer would wait for that check.
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      clearInterval(sending);
      socket.destroy();
      await relay.close();
    }
  }, 60_000);

  test('bodies that never finish take a bounded number of places; past them a 503, freed as they close', async () => {
    const { relay, url } = await startRelay({ dataDir: join(space.dir, 'bodies') });
    const { hostname, port } = new URL(url);
    const sockets: Socket[] = [];
    try {
      // Each declares a body it never finishes sending; the server holds what came while it waits for the rest.
      const partial = Buffer.alloc(64 * 1024, 0x20);
      for (let index = 0; index < 32; index++) {
        const socket = connect({ host: hostname, port: Number(port) });
        socket.on('error', () => {});
        await once(socket, 'connect');
        socket.write(
          rawRequest(url, 'POST', '/api/runs', [
            'Content-Type: application/json',
            `Content-Length: ${1024 * 1024}`,
          ]),
        );
        socket.write(partial);
        sockets.push(socket);
      }
      const post = () =>
        fetch(`${url}/api/runs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ prompt: 42 }),
        });
      await until(async () => (await post()).status === 503, 'the places taken');
      const refused = await post();
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await errorOf(refused)).toBe('busy');
      for (const socket of sockets) socket.destroy();
      // The places come back as the bodies end: the next request is read, and refused for what it is.
      await until(async () => (await post()).status === 400, 'a place freed');
    } finally {
      for (const socket of sockets) socket.destroy();
      await relay.close();
    }
  });
});
