import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createSdkMessageRunStreamEvent,
  decodeLocalRunStreamEvent,
  type LocalRunStreamEvent,
  type SDKMessage,
  type TokenUsage,
} from '@cursor/sdk';
import { createNormalizer, cursorSdkDialect, reduceSessions } from '@cursor-stream/core';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { assistantText, normalizeText, ofType, withoutLoc } from './support.ts';

const AGENT = 'agent-7d1c';
const RUN = 'run-51aa';
const ids = { agent_id: AGENT, run_id: RUN } as const;

const USAGE: TokenUsage = {
  inputTokens: 1200,
  outputTokens: 80,
  cacheReadTokens: 900,
  cacheWriteTokens: 0,
  totalTokens: 2180,
  reasoningTokens: 12,
};

/** One run of every `SDKMessage` member, typed by the SDK's own union. */
const RUN_MESSAGES: SDKMessage[] = [
  { type: 'system', subtype: 'init', ...ids, model: { id: 'composer-2' }, tools: ['shell', 'read'] },
  { type: 'user', ...ids, message: { role: 'user', content: [{ type: 'text', text: 'Count the files.' }] } },
  { type: 'status', ...ids, status: 'RUNNING' },
  { type: 'thinking', ...ids, text: 'A listing will do.', thinking_duration_ms: 300 },
  {
    type: 'assistant',
    ...ids,
    message: { role: 'assistant', content: [{ type: 'text', text: 'Counting ' }] },
  },
  { type: 'tool_call', ...ids, call_id: 'tool_1', name: 'shell', status: 'running', args: { command: 'ls' } },
  {
    type: 'tool_call',
    ...ids,
    call_id: 'tool_1',
    name: 'shell',
    status: 'completed',
    args: { command: 'ls' },
    result: { exitCode: 0, stdout: 'a\nb\n' },
    truncated: { result: false },
  },
  { type: 'tool_call', ...ids, call_id: 'tool_2', name: 'read', status: 'running', args: { path: 'c' } },
  {
    type: 'tool_call',
    ...ids,
    call_id: 'tool_2',
    name: 'read',
    status: 'error',
    result: { error: 'missing' },
  },
  {
    type: 'assistant',
    ...ids,
    message: { role: 'assistant', content: [{ type: 'text', text: 'two files.' }] },
  },
  { type: 'request', ...ids, request_id: 'req-9' } as SDKMessage,
  { type: 'task', ...ids, status: 'completed', text: 'Subagent finished.' },
  { type: 'usage', ...ids, usage: USAGE },
  { type: 'status', ...ids, status: 'FINISHED' },
];

function envelopes(messages: readonly SDKMessage[]): LocalRunStreamEvent[] {
  return messages.map((message) => createSdkMessageRunStreamEvent(message));
}

describe('the cursor-sdk dialect against the SDK', () => {
  test('every message and every envelope the SDK builds passes the dialect schema, strictly', () => {
    for (const record of [...RUN_MESSAGES, ...envelopes(RUN_MESSAGES)]) {
      expect(cursorSdkDialect.validate(record as never, { strict: true })).toEqual([]);
    }
  });

  test('the envelopes of the recordings are what the SDK decodes', () => {
    const folder = join(CORPUS_DIR, 'cursor-sdk');
    const stored = readFileSync(join(folder, 'store-run-events.ndjson'), 'utf8').trim().split('\n');
    const bare = readFileSync(join(folder, 'run-stream-envelopes.ndjson'), 'utf8').trim().split('\n');
    const payloads = [
      ...stored.map((line) => JSON.parse(line).payload),
      ...bare.map((line) => JSON.parse(line)),
    ];
    for (const payload of payloads) expect(decodeLocalRunStreamEvent(payload)).toEqual(payload);
  });

  test('a run reads as one session: its text, its calls paired with their end, its usage and its request id', () => {
    const events = normalizeText(ndjson(RUN_MESSAGES));
    const [session] = reduceSessions(events);
    expect(session).toMatchObject({
      sessionId: AGENT,
      model: 'composer-2',
      status: 'success',
      text: 'Counting two files.',
      usage: { inputTokens: 1200, outputTokens: 80, cacheReadTokens: 900, cacheWriteTokens: 0 },
    });
    expect(session?.toolCalls.map((call) => [call.toolCallId, call.toolName, call.status])).toEqual([
      ['tool_1', 'shell', 'success'],
      ['tool_2', 'read', 'error'],
    ]);
    const [usage] = ofType(events, 'usage');
    expect(usage?.tokens).toEqual(USAGE);
    const [finish] = ofType(events, 'finish');
    expect(finish).toMatchObject({ runId: RUN, agentId: AGENT, requestId: 'req-9', stopReason: 'FINISHED' });
  });

  test('a count the SDK leaves out is null, never 0', () => {
    const { reasoningTokens: _left, ...withoutReasoning } = USAGE;
    const events = normalizeText(ndjson([{ type: 'usage', ...ids, usage: withoutReasoning }]));
    expect(ofType(events, 'usage')[0]?.tokens?.reasoningTokens).toBeNull();
  });

  test('an ended run says why, with the status as the SDK wrote it', () => {
    const events = normalizeText(
      ndjson([
        { type: 'status', ...ids, status: 'RUNNING' },
        { type: 'status', ...ids, status: 'CANCELLED' },
        createSdkMessageRunStreamEvent({ type: 'status', ...ids, status: 'FINISHED' }),
        { schemaVersion: 1, type: 'result', agentId: AGENT, runId: RUN, status: 'finished' },
        { schemaVersion: 1, type: 'done', agentId: AGENT, runId: RUN },
      ]),
    );
    expect(ofType(events, 'finish').map((f) => [f.stopReason, f.isError])).toEqual([['CANCELLED', true]]);
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'cancelled' });
    expect(ofType(events, 'finish')[0]?.failure?.code).toBe('cancelled');
  });

  test('a cancelled run is cancelled whatever its message says', () => {
    const events = normalizeText(
      ndjson([
        { type: 'status', ...ids, status: 'RUNNING' },
        { type: 'status', ...ids, status: 'CANCELLED', message: 'Stopped from the dashboard' },
      ]),
    );
    expect(ofType(events, 'finish')[0]?.failure).toMatchObject({
      message: 'Stopped from the dashboard',
      code: 'cancelled',
    });
  });

  test.prop([fc.subarray(RUN_MESSAGES, { minLength: 1 })])(
    'bare messages, their envelopes and their store rows give the same events',
    (messages) => {
      const bare = withoutLoc(normalizeText(ndjson(messages)));
      const wrapped = envelopes(messages);
      const rows = wrapped.map((payload, index) => ({
        runId: RUN,
        seq: index + 1,
        offset: String(index + 1),
        eventType: 'run_stream_event',
        payload,
        payloadRef: null,
        idempotencyKey: null,
        createdAt: '2026-11-25T18:04:10.218Z',
      }));
      expect(withoutLoc(normalizeText(ndjson(wrapped)))).toEqual(bare);
      expect(withoutLoc(normalizeText(ndjson(rows)))).toEqual(bare);
      expect(assistantText(normalizeText(ndjson(rows)))).toBe(assistantText(normalizeText(ndjson(messages))));
    },
  );
});

describe('what a local run writes, as the SDK converts it', () => {
  const run = (...messages: SDKMessage[]) => normalizeText(ndjson(messages));
  const init: SDKMessage = { type: 'system', subtype: 'init', ...ids, model: { id: 'composer-2' } };

  test('a call completed with an error result failed, though a local run ends every call completed', () => {
    const events = run(
      init,
      { type: 'tool_call', ...ids, call_id: 'c1', name: 'read', status: 'running', args: { path: 'a.ts' } },
      {
        type: 'tool_call',
        ...ids,
        call_id: 'c1',
        name: 'read',
        status: 'completed',
        result: { status: 'error', error: { message: 'File not found' } },
      },
    );
    expect(ofType(events, 'tool-result').map((result) => [result.status, result.isError])).toEqual([
      ['error', true],
    ]);
  });

  test('an empty thinking message ends its block; two blocks are two', () => {
    const events = run(
      init,
      { type: 'thinking', ...ids, text: 'First.' },
      { type: 'thinking', ...ids, text: '', thinking_duration_ms: 10 },
      { type: 'thinking', ...ids, text: 'Second.' },
      { type: 'thinking', ...ids, text: '', thinking_duration_ms: 10 },
    );
    expect(events.filter((event) => event.type.startsWith('reasoning')).map((event) => event.type)).toEqual([
      'reasoning-delta',
      'reasoning-end',
      'reasoning-delta',
      'reasoning-end',
    ]);
  });

  test('a system message other than init, or a status named like an object property, ends no run', () => {
    const events = normalizeText(
      ndjson([
        init,
        { type: 'system', subtype: 'compact_boundary', ...ids },
        { type: 'status', ...ids, status: 'constructor' },
        { type: 'status', ...ids, status: 'FINISHED' },
      ]),
    );
    expect(ofType(events, 'stream-start')).toHaveLength(1);
    expect(ofType(events, 'finish').map((finish) => finish.stopReason)).toEqual(['FINISHED']);
  });

  test('the todo tool is the todo tool', () => {
    const events = run(init, {
      type: 'tool_call',
      ...ids,
      call_id: 't',
      name: 'updateTodos',
      status: 'running',
    });
    expect(ofType(events, 'tool-call').map((call) => call.toolName)).toEqual(['todo']);
  });
});

describe('an SDK run in a stream that also holds the CLI’s records', () => {
  test('keeps its own calls, though the CLI writes records of the same type', () => {
    const cli = readFileSync(join(CORPUS_DIR, 'official', 'event-reference-session.ndjson'), 'utf8');
    const alone = reduceSessions(normalizeText(ndjson(RUN_MESSAGES)));
    const sessions = reduceSessions(normalizeText(`${cli}${ndjson(RUN_MESSAGES)}`));
    const run = sessions.find((session) => session.sessionId === AGENT);
    expect(run?.toolCalls.map((call) => [call.toolCallId, call.status])).toEqual(
      alone[0]?.toolCalls.map((call) => [call.toolCallId, call.status]),
    );
    expect(run?.toolCalls).toHaveLength(2);
  });
});

describe('each session of a stream that mixes the CLI’s records and SDK messages', () => {
  const cli = readFileSync(join(CORPUS_DIR, 'official', 'event-reference-session.ndjson'), 'utf8');
  const sdk = ndjson(RUN_MESSAGES);

  test.each([
    ['the CLI’s first', `${cli}${sdk}`, ['official', 'cursor-sdk']],
    ['the SDK’s first', `${sdk}${cli}`, ['cursor-sdk', 'official']],
    ['the CLI’s around the SDK’s', `${cli}${sdk}${cli}`, ['official', 'cursor-sdk', 'official']],
  ])('names the dialect that read its own records, %s', (_order, text, dialects) => {
    expect(reduceSessions(normalizeText(text)).map((session) => session.dialect)).toEqual(dialects);
  });

  test('names it whatever dialect the caller forced or named', () => {
    const text = `${cli}${sdk}`;
    const forced = normalizeText(text, { dialect: 'official' });
    expect(reduceSessions(forced, { dialect: 'official' }).map((session) => session.dialect)).toEqual([
      'official',
      'cursor-sdk',
    ]);
  });
});

describe('a finish already given', () => {
  test('keeps its usage when the run reports usage again after its end, however the stream is cut', () => {
    const text = ndjson([...RUN_MESSAGES, { type: 'usage', ...ids, usage: USAGE } as SDKMessage]);
    const usageOf = (chunks: readonly string[]) => {
      const normalizer = createNormalizer();
      const events = [...chunks.flatMap((chunk) => [...normalizer.feed(chunk)]), ...normalizer.end()];
      return ofType(events, 'finish').map((finish) => finish.usage);
    };
    const whole = usageOf([text]);
    const byLine = usageOf(text.split(/(?<=\n)/));
    expect(whole).toEqual(byLine);
    expect(whole[0]?.inputTokens).toBe(USAGE.inputTokens);
  });
});
