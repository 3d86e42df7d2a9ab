/**
 * Tool calls that never complete: both bridges keep a bounded number of them open, end those at the session's end,
 * and say how many they forgot, so that neither memory nor the end's chunks grow with the number of calls.
 */

import { createUIMessageEncoder, UNFINISHED_TOOL_ERROR_TEXT } from '@cursor-stream/ai-sdk';
import { createTurnParts } from '@cursor-stream/ai-sdk/harness';
import type { CanonicalEvent } from '@cursor-stream/core';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { convertToModelMessages, type UIMessageChunk, uiMessageChunkSchema } from 'ai';
import { describe, expect, test } from 'vitest';
import { schemaProblems } from './harness-support.ts';
import { readAsAiSdk, toolParts } from './support.ts';

/** Core's `MAX_REMEMBERED_CALLS`, written out: the bound is part of what a client sees. */
const BOUND = 1024;
/** Chunks a session's end gives besides a call's end: the open block's end, the forgotten count, `finish-step`. */
const END_CHUNKS = 3;

const call = (toolCallId: string): CanonicalEvent => ({
  type: 'tool-call',
  toolCallId,
  toolName: 'shell',
  providerToolName: 'shellToolCall',
  input: { command: 'sleep 1' },
});

const result = (toolCallId: string): CanonicalEvent => ({
  type: 'tool-result',
  toolCallId,
  toolName: 'shell',
  providerToolName: 'shellToolCall',
  status: 'success',
  isError: false,
  output: { exitCode: 0 },
});

const finish: CanonicalEvent = {
  type: 'finish',
  finishReason: 'stop',
  isError: false,
  pendingToolCallIds: [],
};

const idsOf = (count: number) => Array.from({ length: count }, (_, index) => `call-${index}`);

/** The count a `data-forgotten-tool-calls` chunk says, 0 without one; more than one fails. */
function forgottenCount(chunks: readonly UIMessageChunk[]): number {
  const said = chunks.filter((chunk) => chunk.type === 'data-forgotten-tool-calls');
  expect(said.length).toBeLessThanOrEqual(1);
  const data = (said[0] as { data?: { count?: unknown } } | undefined)?.data;
  return typeof data?.count === 'number' ? data.count : 0;
}

async function expectValidChunks(chunks: readonly UIMessageChunk[]): Promise<void> {
  const schema = uiMessageChunkSchema();
  for (const chunk of chunks) {
    const checked = await schema.validate?.(JSON.parse(JSON.stringify(chunk)));
    expect(checked?.success, JSON.stringify(chunk)).toBe(true);
  }
}

describe('the UI message stream, with more calls open than it keeps', () => {
  test('ends the newest 1024 at the finish, and says in one chunk how many it forgot', async () => {
    const forgotten = 500;
    const ids = idsOf(BOUND + forgotten);
    const encoder = createUIMessageEncoder();
    const calls = ids.flatMap((id) => encoder.encode(call(id)));
    const close = encoder.encode(finish);
    const end = encoder.end();

    expect(close.length).toBeLessThanOrEqual(BOUND + END_CHUNKS);
    const ended = close.flatMap((chunk) => (chunk.type === 'tool-output-error' ? [chunk] : []));
    expect(ended.map((chunk) => chunk.toolCallId)).toEqual(ids.slice(forgotten));
    expect(ended.every((chunk) => chunk.errorText === UNFINISHED_TOOL_ERROR_TEXT)).toBe(true);
    expect(close.filter((chunk) => chunk.type === 'data-forgotten-tool-calls')).toEqual([
      {
        type: 'data-forgotten-tool-calls',
        data: { count: forgotten, text: expect.stringMatching(/^500 tool calls were forgotten while open/) },
      },
    ]);
    expect(end).toEqual([{ type: 'finish', finishReason: 'stop' }]);
    await expectValidChunks([...calls, ...close, ...end]);
  });

  test('as useChat reads it: the forgotten calls keep their input, and the message is still one a model takes', async () => {
    const forgotten = 3;
    const ids = idsOf(BOUND + forgotten);
    const { message, errors } = await readAsAiSdk([...ids.map(call), finish]);
    expect(errors).toEqual([]);
    const states = toolParts(message).map((part) => part.state);
    expect(states.slice(0, forgotten)).toEqual(['input-available', 'input-available', 'input-available']);
    expect(new Set(states.slice(forgotten))).toEqual(new Set(['output-error']));
    expect(message?.parts.filter((part) => part.type === 'data-forgotten-tool-calls')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ count: forgotten }) }),
    ]);
    // The agent ran its calls (`providerExecuted`): one without a result is no missing answer of the caller's.
    if (message !== undefined) await expect(convertToModelMessages([message])).resolves.toBeDefined();
  });

  test('ends and counts the calls of a stream that stops without a finish, as the relay ends it', async () => {
    const encoder = createUIMessageEncoder();
    for (const id of idsOf(BOUND + 10)) encoder.encode(call(id));
    const end = encoder.end();
    expect(end.filter((chunk) => chunk.type === 'tool-output-error')).toHaveLength(BOUND);
    expect(forgottenCount(end)).toBe(10);
    expect(end.length).toBeLessThanOrEqual(BOUND + END_CHUNKS + 1);
  });

  test('counts a call whose id is too long to keep, and a later session starts its count afresh', async () => {
    const encoder = createUIMessageEncoder();
    encoder.encode(call('x'.repeat(5000)));
    encoder.encode(call('short'));
    const first = encoder.encode(finish);
    expect(first.filter((chunk) => chunk.type === 'tool-output-error')).toHaveLength(1);
    expect(forgottenCount(first)).toBe(1);
    expect(first.find((chunk) => chunk.type === 'data-forgotten-tool-calls')).toMatchObject({
      data: { text: expect.stringMatching(/^1 tool call was forgotten while open/) },
    });
    encoder.encode(call('again'));
    const second = encoder.encode(finish);
    expect(forgottenCount(second)).toBe(0);
    await expectValidChunks([...first, ...second, ...encoder.end()]);
  });
});

/**
 * `calls` calls, a completion for every `every`-th of them `lag` calls after it: by numbers rather than a list of
 * events, so that a counterexample shrinks fast.
 */
const trafficArb = fc.record({
  calls: fc.integer({ min: 0, max: 3 * BOUND }),
  every: fc.integer({ min: 1, max: 8 }),
  lag: fc.integer({ min: 0, max: 2 * BOUND }),
});

function traffic({ calls, every, lag }: { calls: number; every: number; lag: number }): CanonicalEvent[] {
  const events: CanonicalEvent[] = [];
  for (let index = 0; index < calls; index += 1) {
    events.push(call(`call-${index}`));
    const completed = index - lag;
    if (completed >= 0 && completed % every === 0) events.push(result(`call-${completed}`));
  }
  return events;
}

describe('for any traffic of calls and completions', () => {
  propertyTest.prop([trafficArb], { numRuns: 40 })(
    "the finish gives at most the bound's chunks and a few more, and every part it leaves open is counted",
    (shape) => {
      const encoder = createUIMessageEncoder();
      const chunks = traffic(shape).flatMap((event) => encoder.encode(event));
      const close = encoder.encode(finish);
      expect(close.length).toBeLessThanOrEqual(BOUND + END_CHUNKS);
      const unended = new Set<string>();
      for (const chunk of [...chunks, ...close]) {
        if (chunk.type === 'tool-input-available') unended.add(chunk.toolCallId);
        else if (chunk.type === 'tool-output-available' || chunk.type === 'tool-output-error')
          unended.delete(chunk.toolCallId);
      }
      // Nothing is left open silently: a part the stream does not end is one of those it says it forgot.
      expect(unended.size).toBeLessThanOrEqual(forgottenCount(close));
    },
  );
});

describe("the harness's turn parts, with more calls open than they keep", () => {
  test('end the newest 1024 with a failed result, and say in one raw part how many they forgot', () => {
    const forgotten = 500;
    const ids = idsOf(BOUND + forgotten);
    const turn = createTurnParts({ harnessId: 'cursor-stream' });
    const calls = ids.flatMap((id) => turn.map(call(id)));
    const end = turn.end({ ok: true, finish: undefined, chatId: 'chat' });

    // The open calls' results, the forgotten count, `finish-step` and `finish`.
    expect(end.length).toBeLessThanOrEqual(BOUND + 3);
    const ended = end.flatMap((part) => (part.type === 'tool-result' ? [part] : []));
    expect(ended.map((part) => part.toolCallId)).toEqual(ids.slice(forgotten));
    expect(end.filter((part) => part.type === 'raw')).toEqual([
      {
        type: 'raw',
        rawValue: {
          type: 'forgotten-tool-calls',
          count: forgotten,
          text: expect.stringMatching(/^500 tool calls were forgotten while open/),
        },
      },
    ]);
    expect(schemaProblems([...calls, ...end])).toEqual([]);
  });

  test('a failed turn ends them the same way, before its error', () => {
    const turn = createTurnParts({ harnessId: 'cursor-stream' });
    for (const id of idsOf(BOUND + 1)) turn.map(call(id));
    const end = turn.end({ ok: false, error: new Error('stopped') });
    expect(end.filter((part) => part.type === 'tool-result')).toHaveLength(BOUND);
    expect(end.slice(-3).map((part) => part.type)).toEqual(['raw', 'finish-step', 'error']);
  });
});
