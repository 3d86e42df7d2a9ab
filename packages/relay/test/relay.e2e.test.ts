import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { CanonicalEvent } from '@cursor-stream/core';
import { parseEventId, type RelayServer } from '@cursor-stream/relay';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { eventsOf, readSse, readWebSocket } from '@cursor-stream/test-kit/sse';
import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from 'ai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  normalizeWithCli,
  postRun,
  recordingBytes,
  runEnded,
  scratch,
  startRelay,
  until,
} from './support.ts';

const space = scratch();
let relay: RelayServer;
let url = '';
let lines: string[] = [];

/** The fake agent, writing the recording in small chunks with pauses, so clients see the run live. */
const SLOW = { FAKE_AGENT_REPLAY: DOCS_EXAMPLE, FAKE_AGENT_CHUNK_BYTES: '150', FAKE_AGENT_DELAY_MS: '15' };

beforeAll(async () => {
  ({ relay, url, lines } = await startRelay({
    dataDir: join(space.dir, 'data'),
    agent: { binary: space.agent, env: SLOW, killGraceMs: 500 },
  }));
});
afterAll(async () => {
  await relay.close();
  space.remove();
});

const logOf = (runId: string) => join(space.dir, 'data/runs', `${runId}.ndjson`);

const finished = (runId: string) => runEnded(url, runId);

function idsAreIncreasing(ids: readonly string[]): boolean {
  return ids.every((id, index) => {
    if (index === 0) return true;
    const a = parseEventId(ids[index - 1] ?? '');
    const b = parseEventId(id);
    return (
      a !== undefined &&
      b !== undefined &&
      (b.offset > a.offset || (b.offset === a.offset && b.index > a.index))
    );
  });
}

describe('a run over SSE', () => {
  test('gives exactly the events `cursor-stream normalize` gives for its log, in order, with offset ids', async () => {
    const runId = await postRun(url, { prompt: 'Summarize README.md' });
    const { status, messages } = await readSse(`${url}/api/runs/${runId}/events`);
    expect(status).toBe(200);
    expect(messages.at(-1)?.event).toBe('end');
    await finished(runId);
    expect(readFileSync(logOf(runId))).toEqual(recordingBytes());
    const received = eventsOf(messages);
    expect(received.map(({ event }) => event)).toEqual(await normalizeWithCli(logOf(runId)));
    for (const { id, event } of received) {
      if (event.loc !== undefined && !id.includes(':')) expect(Number(id)).toBe(event.loc.offset);
    }
    expect(idsAreIncreasing(received.map(({ id }) => id))).toBe(true);
  });

  test('resumes after Last-Event-ID mid-run with no gap and no duplicate', async () => {
    const runId = await postRun(url, { prompt: 'again' });
    const first = eventsOf((await readSse(`${url}/api/runs/${runId}/events`, { limit: 3 })).messages);
    expect(first).toHaveLength(3);
    const lastId = first.at(-1)?.id ?? '';
    const rest = eventsOf(
      (await readSse(`${url}/api/runs/${runId}/events`, { headers: { 'last-event-id': lastId } })).messages,
    );
    const all = eventsOf((await readSse(`${url}/api/runs/${runId}/events`)).messages);
    expect([...first, ...rest]).toEqual(all);
    // A browser reconnecting on its own to an address that resumed earlier: the later id of the two wins.
    const reconnected = eventsOf(
      (
        await readSse(`${url}/api/runs/${runId}/events?after=${first[0]?.id}`, {
          headers: { 'last-event-id': lastId },
        })
      ).messages,
    );
    expect(reconnected).toEqual(rest);
    expect(all.map(({ event }) => event)).toEqual(await normalizeWithCli(logOf(runId)));
    // After the last event of an ended run there is nothing: 204 stops a browser's EventSource from reconnecting.
    const after = await readSse(`${url}/api/runs/${runId}/events?after=${all.at(-1)?.id}`);
    expect(after.status).toBe(204);
  });

  test('payload-envelope: the app records, a line that is no record wrapped as raw', async () => {
    const runId = await postRun(url, { prompt: 'envelope' });
    const { messages } = await readSse(`${url}/api/runs/${runId}/events?format=payload-envelope`);
    const records = messages
      .filter((message) => message.event === undefined)
      .map((message) => JSON.parse(message.data));
    expect(records[0]).toMatchObject({ type: 'system', subtype: 'init' });
    expect(records.filter((record) => record.type === 'tool_call')).toHaveLength(4);
    expect(records.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
  });

  test('ai-sdk: the AI SDK reads the stream into the run’s text and tool parts', async () => {
    const runId = await postRun(url, { prompt: 'ai' });
    const response = await fetch(`${url}/api/runs/${runId}/events?format=ai-sdk`);
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    if (response.body === null) throw new Error('no body');
    const seen: UIMessageChunk[] = [];
    const chunks = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema }).pipeThrough(
      new TransformStream<{ success: boolean; value?: UIMessageChunk }, UIMessageChunk>({
        transform(parsed, controller) {
          if (!parsed.success || parsed.value === undefined) throw new Error('a chunk the AI SDK rejects');
          seen.push(parsed.value);
          controller.enqueue(parsed.value);
        },
      }),
    );
    let message: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream: chunks, terminateOnError: true }))
      message = snapshot;
    const text = message?.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
    expect(text).toBe('我會閱讀 README.md 檔案並建立摘要');
    expect(
      message?.parts.filter((part) => part.type === 'tool-read' || part.type === 'tool-write'),
    ).toHaveLength(2);
    // The run's last event closes the message, also when it came before the run was known to be over.
    expect(seen.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });
});

describe('a resume of an ended run', () => {
  test('seeks in its journal: the same bytes as a read of the log, for honest and forged ids, without the log', async () => {
    const runId = await postRun(url, { prompt: 'journal' });
    await finished(runId);
    const events = eventsOf((await readSse(`${url}/api/runs/${runId}/events`)).messages);
    const honest = [events[0]?.id, events[3]?.id, events.at(-2)?.id, events.at(-1)?.id];
    const offset = parseEventId(events[5]?.id ?? '')?.offset ?? 0;
    const forged = ['1', `${offset + 1}`, `${offset}:7`, '99999999999'];
    const sse = async (after: string) => {
      const texts: string[] = [];
      for (const format of ['canonical', 'payload-envelope', 'ai-sdk']) {
        const response = await fetch(`${url}/api/runs/${runId}/events?after=${after}&format=${format}`);
        texts.push(`${response.status} ${await response.text()}`);
      }
      return texts.join('\n---\n');
    };
    const ws = (after: string) =>
      readWebSocket(`${url.replace('http:', 'ws:')}/api/runs/${runId}/ws?after=${after}`);
    const journal = join(space.dir, 'data/runs', `${runId}.events`);
    expect(existsSync(journal)).toBe(true);

    // Without the journal, the log is read from the start.
    renameSync(journal, `${journal}.away`);
    const fromLog = new Map<string, [string, unknown]>();
    for (const after of [...honest, ...forged])
      fromLog.set(after ?? '', [await sse(after ?? ''), await ws(after ?? '')]);
    // With it and without the log, the journal alone answers, the same.
    renameSync(`${journal}.away`, journal);
    renameSync(logOf(runId), `${logOf(runId)}.away`);
    for (const [after, [text, messages]] of fromLog) {
      expect(await sse(after)).toBe(text);
      expect(await ws(after)).toEqual(messages);
    }
    expect(fromLog.get(events[3]?.id ?? '')?.[0]).toContain(`id: ${events[4]?.id}\n`);
    expect(fromLog.get(events.at(-1)?.id ?? '')?.[0]).toMatch(/^204 \n/);
    renameSync(`${logOf(runId)}.away`, logOf(runId));
  });
});

describe('a run over WebSocket', () => {
  test('gives {id, event} messages equal to the SSE stream, and resumes with ?after=', async () => {
    const runId = await postRun(url, { prompt: 'ws' });
    const ws = url.replace('http:', 'ws:');
    const all = await readWebSocket(`${ws}/api/runs/${runId}/ws`);
    const sse = eventsOf((await readSse(`${url}/api/runs/${runId}/events`)).messages);
    expect(all).toEqual(sse.map(({ id, event }) => ({ id, event })));
    expect(all.map((message) => message.event as CanonicalEvent)).toEqual(
      await normalizeWithCli(logOf(runId)),
    );
    const rest = await readWebSocket(`${ws}/api/runs/${runId}/ws?after=${all[2]?.id}`);
    expect(rest).toEqual(all.slice(3));
  });
});

describe('a client slower than the run', () => {
  /** A long run: thousands of reasoning records, more than any socket buffer holds as events. */
  function longRecording(): string {
    const path = join(space.dir, 'long.ndjson');
    const record = (value: object) => `${JSON.stringify({ ...value, session_id: 's-long' })}\n`;
    let text = record({ type: 'system', subtype: 'init', model: 'Auto' });
    for (let i = 0; i < 20_000; i++)
      text += record({ type: 'thinking', subtype: 'delta', text: `step ${i} ` });
    text += record({ type: 'result', subtype: 'success', is_error: false, result: '', duration_ms: 1 });
    writeFileSync(path, text);
    return path;
  }

  test('falls back to the log when the ring has moved on, and still gets every event once, in order', async () => {
    const small = await startRelay({
      dataDir: join(space.dir, 'ring'),
      agent: {
        binary: space.agent,
        env: { FAKE_AGENT_REPLAY: longRecording(), FAKE_AGENT_CHUNK_BYTES: '65536' },
      },
      ring: { maxEvents: 16 },
      // This client reads nothing until the run is over, however long a busy machine makes the run: it must fall
      // back to the log, not be closed as stalled.
      clientQueue: { stallMs: 10 * 60_000 },
    });
    try {
      const runId = await postRun(small.url, { prompt: 'long' });
      // A client that connects at once and then reads nothing until the run is over.
      const { status, body } = await new Promise<{ status: number; body: Promise<string> }>((resolve) => {
        get(`${small.url}/api/runs/${runId}/events`, (response) => {
          response.pause();
          const text = runEnded(small.url, runId).then(async () => {
            let all = '';
            response.setEncoding('utf8');
            for await (const chunk of response) all += chunk;
            return all;
          });
          resolve({ status: response.statusCode ?? 0, body: text });
        });
      });
      expect(status).toBe(200);
      const ids = [...(await body).matchAll(/^id: (.*)$/gm)].map((match) => match[1]);
      const expected = await normalizeWithCli(join(space.dir, 'ring/runs', `${runId}.ndjson`));
      expect(expected.length).toBeGreaterThan(20_000);
      const complete = eventsOf((await readSse(`${small.url}/api/runs/${runId}/events`)).messages);
      expect(complete.map(({ event }) => event)).toEqual(expected);
      expect(ids).toEqual(complete.map(({ id }) => id));
    } finally {
      await small.relay.close();
    }
  });
});

describe('runs', () => {
  test('are listed, summarized, and cancelled; a cancelled run ends with its reason', async () => {
    const hang = await startRelay({
      dataDir: join(space.dir, 'hang'),
      agent: {
        binary: space.agent,
        env: { FAKE_AGENT_REPLAY: DOCS_EXAMPLE, FAKE_AGENT_HANG: 'after' },
        killGraceMs: 200,
        exitGraceMs: 60_000,
      },
    });
    try {
      const runId = await postRun(hang.url, { prompt: 'wait', mode: 'ask' });
      const listed = (await (await fetch(`${hang.url}/api/runs`)).json()) as {
        runs: { runId: string; status: string }[];
      };
      expect(listed.runs[0]).toMatchObject({ runId, status: 'running' });
      // The recording has its result, so the run waits for the agent to exit (it hangs): cancel it.
      await until(
        async () =>
          readFileSync(join(space.dir, 'hang/runs', `${runId}.ndjson`)).length === recordingBytes().length,
        'the log',
      );
      const cancel = await fetch(`${hang.url}/api/runs/${runId}/cancel`, { method: 'POST' });
      expect(cancel.status).toBe(202);
      await runEnded(hang.url, runId);
      const summary = (await (await fetch(`${hang.url}/api/runs/${runId}`)).json()) as Record<
        string,
        unknown
      >;
      expect(summary).toMatchObject({
        runId,
        status: 'cancelled',
        mode: 'ask',
        error: { code: 'cancelled' },
      });
      expect(summary.session).toMatchObject({
        dialect: 'official',
        text: '我會閱讀 README.md 檔案並建立摘要',
      });
      expect((await fetch(`${hang.url}/api/runs/${runId}/cancel`, { method: 'POST' })).status).toBe(409);
    } finally {
      await hang.relay.close();
    }
  });

  test('a summary lists the first 1,000 tool calls of a session and counts the others, as `summary --json` does', async () => {
    const calls = 1_100;
    const records = ['{"type":"system","subtype":"init","session_id":"s","model":"Auto"}'];
    for (let index = 0; index < calls; index++) {
      const call = `"call_id":"c${index}","session_id":"s"`;
      records.push(
        `{"type":"tool_call","subtype":"started",${call},"tool_call":{"readToolCall":{"args":{"path":"a"}}}}`,
        `{"type":"tool_call","subtype":"completed",${call},"tool_call":{"readToolCall":{"args":{"path":"a"},"result":{"success":{"content":"x"}}}}}`,
      );
    }
    records.push('{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"s"}');
    const log = join(space.dir, 'many-calls.ndjson');
    writeFileSync(log, `${records.join('\n')}\n`);
    const many = await startRelay({
      dataDir: join(space.dir, 'many-calls'),
      agent: { binary: space.agent, env: { FAKE_AGENT_REPLAY: log }, killGraceMs: 200 },
    });
    try {
      const runId = await postRun(many.url, { prompt: 'read' });
      await runEnded(many.url, runId);
      const { session } = (await (await fetch(`${many.url}/api/runs/${runId}`)).json()) as {
        session: { toolCalls: unknown[]; toolCallsOmitted: number; counts: Record<string, number> };
      };
      expect(session.toolCalls).toHaveLength(1_000);
      expect(session.toolCallsOmitted).toBe(100);
      expect(session.counts['tool-call']).toBe(calls);
    } finally {
      await many.relay.close();
    }
  });

  test('a client gone while its body is read is logged as cut off, not as a success or a failure of the relay', async () => {
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      `POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"prompt":`,
    );
    // The relay has begun to read the body before the client leaves.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = lines.length;
    socket.destroy();
    await until(() => lines.slice(before).some((line) => line.includes(' POST /api/runs ')), 'the log line');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const logged = lines.slice(before);
    expect(logged.some((line) => / POST \/api\/runs cut off \d+ms$/.test(line))).toBe(true);
    expect(logged.some((line) => line.startsWith('relay: '))).toBe(false);
  });

  test('every request is logged as one line, without its query', () => {
    expect(lines.some((line) => / POST \/api\/runs 201 \d+ms$/.test(line))).toBe(true);
    expect(lines.some((line) => / GET \/api\/runs\/[0-9a-z-]+\/events 200 /.test(line))).toBe(true);
    expect(lines.every((line) => !line.includes('?'))).toBe(true);
  });
});

describe('a run whose agent cannot start', () => {
  test('ends its stream with the reason and a finish, and is listed as failed', async () => {
    const broken = await startRelay({
      dataDir: join(space.dir, 'broken'),
      agent: { binary: join(space.dir, 'no-such-agent') },
    });
    try {
      const runId = await postRun(broken.url, { prompt: 'hi' });
      const events = eventsOf((await readSse(`${broken.url}/api/runs/${runId}/events`)).messages);
      expect(events.map(({ id, event }) => [id, event.type])).toEqual([
        ['0', 'error'],
        ['0:1', 'finish'],
      ]);
      expect(events[0]?.event).toMatchObject({ type: 'error', code: 'spawn-failed' });
      await runEnded(broken.url, runId);
      const summary = (await (await fetch(`${broken.url}/api/runs/${runId}`)).json()) as Record<
        string,
        unknown
      >;
      expect(summary).toMatchObject({ status: 'failed', error: { code: 'spawn-failed' } });
    } finally {
      await broken.relay.close();
    }
  });
});
