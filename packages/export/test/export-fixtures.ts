/** Logs the export tests read, written here so that each shape is known exactly, and a helper to feed them. */

import { createNormalizer } from '@cursor-stream/core';
import { cutAt } from '@cursor-stream/test-kit/chunking';
import type { LogExporter } from '../src/index.ts';

const SESSION_A = 'aaaaaaaa-0000-4000-8000-000000000001';
const SESSION_B = 'bbbbbbbb-0000-4000-8000-000000000002';

/** A call id holding a raw newline, as real logs send them. */
export const NEWLINE_CALL_ID = 'call_NEWLINE\nfc_0123456789abcdef';

export function init(sessionId: string, model: string): object {
  return {
    type: 'system',
    subtype: 'init',
    session_id: sessionId,
    model,
    cwd: '/tmp',
    apiKeySource: 'login',
  };
}

export function shellStart(sessionId: string, callId: string, command: string, startedAtMs?: number): object {
  const toolCall: Record<string, unknown> = { shellToolCall: { args: { command } } };
  if (startedAtMs !== undefined) toolCall.startedAtMs = String(startedAtMs);
  const record: Record<string, unknown> = {
    type: 'tool_call',
    subtype: 'started',
    call_id: callId,
    tool_call: toolCall,
    session_id: sessionId,
  };
  if (startedAtMs !== undefined) record.timestamp_ms = startedAtMs + 1;
  return record;
}

export function shellDone(sessionId: string, callId: string, arm: string, times?: [number, number]): object {
  const toolCall: Record<string, unknown> = {
    shellToolCall: {
      result: { [arm]: { command: 'x', exitCode: arm === 'success' ? 0 : 1, stdout: 'out' } },
    },
  };
  if (times !== undefined) {
    toolCall.startedAtMs = String(times[0]);
    toolCall.completedAtMs = String(times[1]);
  }
  const record: Record<string, unknown> = {
    type: 'tool_call',
    subtype: 'completed',
    call_id: callId,
    tool_call: toolCall,
    session_id: sessionId,
  };
  if (times !== undefined) record.timestamp_ms = times[1] + 2;
  return record;
}

export function result(sessionId: string, isError: boolean, text: string, usage?: object): object {
  return {
    type: 'result',
    subtype: isError ? 'error' : 'success',
    is_error: isError,
    duration_ms: 9000,
    duration_api_ms: 9000,
    result: text,
    session_id: sessionId,
    request_id: 'req-1',
    ...(usage === undefined ? {} : { usage }),
  };
}

export function ndjson(records: readonly object[]): string {
  // JSON.stringify escapes the newline of a call id; real logs write it raw, which the tokenizer reads as one record.
  return `${records.map((record) => JSON.stringify(record).replaceAll('\\n', '\n')).join('\n')}\n`;
}

/**
 * Two sessions: A (timestamps on its calls, a failed call, a call id with a raw newline, usage, success) and B (no
 * times at all, one pending call, an error result).
 */
export const TWO_SESSIONS_LOG = ndjson([
  init(SESSION_A, 'Claude 4 Sonnet'),
  {
    type: 'user',
    message: { role: 'user', content: [{ type: 'text', text: 'run the tests' }] },
    session_id: SESSION_A,
  },
  shellStart(SESSION_A, 'call_ok', 'ls', 1_790_000_000_000),
  shellDone(SESSION_A, 'call_ok', 'success', [1_790_000_000_000, 1_790_000_001_500]),
  shellStart(SESSION_A, NEWLINE_CALL_ID, 'false', 1_790_000_002_000),
  shellDone(SESSION_A, NEWLINE_CALL_ID, 'failure', [1_790_000_002_000, 1_790_000_002_250]),
  {
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    session_id: SESSION_A,
  },
  result(SESSION_A, false, 'Done.', {
    inputTokens: 1200,
    outputTokens: 300,
    cacheReadTokens: 1000,
    cacheWriteTokens: 50,
  }),
  init(SESSION_B, 'GPT-5'),
  shellStart(SESSION_B, 'call_pending', 'sleep 100'),
  shellStart(SESSION_B, 'call_rejected', 'rm -rf /'),
  shellDone(SESSION_B, 'call_rejected', 'rejected'),
  result(SESSION_B, true, 'The agent could not finish: permission denied.'),
]);

/**
 * Feeds a log's text to an exporter as the CLI does: records (for times) before the events they produce, in chunks
 * cut at `cuts` (character positions; none: one chunk).
 */
export async function feedLog(
  exporter: LogExporter,
  file: string,
  text: string,
  modifiedMs = 1_700_000_000_000,
  cuts: readonly number[] = [],
) {
  const sink = await exporter.openLog(file, modifiedMs);
  const normalizer = createNormalizer({
    onRecord: (record, dialect) => sink.observeRecord(record.line, record.value, dialect?.name),
  });
  for (const chunk of cutAt(text, cuts)) await sink.push(normalizer.feed(chunk));
  await sink.push(normalizer.end());
  await sink.end();
}

const HOSTILE_SESSION = 'hhhhhhhh-0000-4000-8000-000000000003';

/**
 * Logs of values no column type holds: times past any date, token counts and durations no integer column takes, a
 * lone surrogate in strings (written with JSON escapes, as a producer's JSON would), a NUL; and a clean log after
 * them. Each value's line is known: the tests check that the warnings name it.
 */
export const HOSTILE_LOGS: readonly (readonly [string, string])[] = [
  [
    '/logs/times.ndjson',
    [
      `{"type":"system","subtype":"init","session_id":"${HOSTILE_SESSION}","model":"m","timestamp_ms":1e300}`,
      `{"type":"tool_call","subtype":"started","call_id":"c1","session_id":"${HOSTILE_SESSION}","timestamp_ms":8640000000000001,"tool_call":{"shellToolCall":{"args":{"command":"ls"}},"startedAtMs":"9999999999999999"}}`,
      `{"type":"tool_call","subtype":"completed","call_id":"c1","session_id":"${HOSTILE_SESSION}","tool_call":{"shellToolCall":{"result":{"success":{"exitCode":0}}},"startedAtMs":1790000000000.25,"completedAtMs":1790000000001.5}}`,
      `{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"${HOSTILE_SESSION}","duration_ms":1e308}`,
      '',
    ].join('\n'),
  ],
  [
    '/logs/values.ndjson',
    [
      '{"type":"system","subtype":"init","session_id":"s-\\ud800","model":"model \\udc00 \\u0000 end","timestamp_ms":1790000000000}',
      '{"type":"tool_call","subtype":"started","call_id":"call-\\ud83d","session_id":"s-\\ud800","tool_call":{"shellToolCall":{"args":{"command":"ls"}}}}',
      '{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s-\\ud800","duration_ms":5.5,"usage":{"inputTokens":1e308,"outputTokens":1.5,"cacheReadTokens":7}}',
      '',
    ].join('\n'),
  ],
  ['/logs/clean.ndjson', TWO_SESSIONS_LOG],
];
