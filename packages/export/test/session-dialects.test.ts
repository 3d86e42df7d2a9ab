/**
 * A log may hold sessions of several dialects (the CLI's records, then `@cursor/sdk` messages): each exported session
 * names the dialect that read it, however the log's records and events are batched.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNormalizer, reduceSessions } from '@cursor-stream/core/normalize';
import { createSessionCollector, type ExportSession, MAX_EXPORTED_TOOL_CALLS } from '@cursor-stream/export';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { expect, test } from 'vitest';

const LOG = ['official/docs-example-zh.ndjson', 'cursor-sdk/run-stream-envelopes.ndjson']
  .map((name) => readFileSync(join(CORPUS_DIR, name), 'utf8'))
  .join('');

test('each session of a log of two dialects is exported with its own, read in one batch or line by line', async () => {
  for (const batches of [[LOG], LOG.split(/(?<=\n)/)]) {
    const sessions: ExportSession[] = [];
    const collector = createSessionCollector({
      file: 'mixed.ndjson',
      onSession: (s) => void sessions.push(s),
    });
    const normalizer = createNormalizer({
      onRecord: (record, dialect) => collector.observeRecord(record.line, record.value, dialect?.name),
    });
    for (const batch of batches) for (const event of normalizer.feed(batch)) await collector.push(event);
    for (const event of normalizer.end()) await collector.push(event);
    await collector.end();
    expect(sessions.slice(0, 2).map((session) => [session.sessionId, session.dialect])).toEqual([
      ['c6b62c6f-7ead-4fd6-9922-e952131177ff', 'official'],
      ['agent-00000000-0000-4000-8000-000000000001', 'cursor-sdk'],
    ]);
  }
});

test('each exported session has the id summary gives it, however many records trail the session before it', async () => {
  // An ACP log whose first session is followed by a session/load and a permission answer of the next.
  const text = readFileSync(join(CORPUS_DIR, 'acp/cursor-findings-quotes.ndjson'), 'utf8');
  const sessions: ExportSession[] = [];
  const collector = createSessionCollector({ file: 'acp.ndjson', onSession: (s) => void sessions.push(s) });
  const normalizer = createNormalizer();
  for (const event of [...normalizer.feed(text), ...normalizer.end()]) await collector.push(event);
  await collector.end();
  const whole = reduceSessions(normalizeAll(text));
  expect(whole.length).toBeGreaterThan(1);
  expect(sessions.map((session) => session.sessionId)).toEqual(whole.map((session) => session.sessionId));
});

function normalizeAll(text: string) {
  const normalizer = createNormalizer();
  return [...normalizer.feed(text), ...normalizer.end()];
}

test('a session of more tool calls than it exports keeps the first ones and says how many it left out', async () => {
  const problems: string[] = [];
  const sessions: ExportSession[] = [];
  const collector = createSessionCollector({
    file: 'calls.ndjson',
    onSession: (s) => void sessions.push(s),
    onProblem: (_line, message) => void problems.push(message),
  });
  const calls = MAX_EXPORTED_TOOL_CALLS + 3;
  await collector.push({ type: 'stream-start', sessionId: 's' });
  for (let index = 0; index < calls; index++) {
    const call = { toolCallId: `c${index}`, toolName: 'shell', providerToolName: 'shellToolCall' };
    await collector.push({ type: 'tool-call', ...call, input: {} });
    // The calls past the bound complete too: their completions are left out with them.
    await collector.push({ type: 'tool-result', ...call, status: 'success', isError: false, output: {} });
  }
  await collector.push({ type: 'finish', finishReason: 'stop', isError: false, pendingToolCallIds: [] });
  await collector.end();
  expect(sessions).toHaveLength(1);
  expect(sessions[0]?.toolCalls).toHaveLength(MAX_EXPORTED_TOOL_CALLS);
  expect(sessions[0]?.toolCalls.at(-1)?.toolCallId).toBe(`c${MAX_EXPORTED_TOOL_CALLS - 1}`);
  expect(problems).toEqual(['3 tool calls past the first 65,536 of a session; left out']);
});

test("a session keeps its calls' content as the export writes it, and no more than its bound of it", async () => {
  const problems: string[] = [];
  const sessions: ExportSession[] = [];
  const collector = createSessionCollector({
    file: 'content.ndjson',
    includeContent: true,
    contentText: (value) => JSON.stringify(value).slice(0, 10),
    maxContentChars: 25,
    onSession: (s) => void sessions.push(s),
    onProblem: (_line, message) => void problems.push(message),
  });
  await collector.push({ type: 'stream-start', sessionId: 's' });
  for (let index = 0; index < 3; index++) {
    const call = { toolCallId: `c${index}`, toolName: 'shell', providerToolName: 'shellToolCall' };
    await collector.push({ type: 'tool-call', ...call, input: { command: 'x'.repeat(1000) } });
    await collector.push({
      type: 'tool-result',
      ...call,
      status: 'success',
      isError: false,
      output: 'y'.repeat(1000),
    });
  }
  await collector.push({ type: 'finish', finishReason: 'stop', isError: false, pendingToolCallIds: [] });
  await collector.end();
  // Ten characters each: the first three fit under 25 (the third passes it), the other three are left out.
  expect(sessions[0]?.toolCalls.map((call) => [call.input, call.output])).toEqual([
    ['{"command"', '"yyyyyyyyy'],
    ['{"command"', undefined],
    [undefined, undefined],
  ]);
  expect(problems).toEqual([
    'the content of 3 tool arguments and results past the first 25 characters of a session; left out',
  ]);
});
