import {
  createUIMessageEncoder,
  toolErrorText,
  toUIMessageStream,
  UNFINISHED_TOOL_ERROR_TEXT,
} from '@cursor-stream/ai-sdk';
import { createTurnParts } from '@cursor-stream/ai-sdk/harness';
import type { CanonicalEvent } from '@cursor-stream/core';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { convertToModelMessages, type UIMessageChunk } from 'ai';
import { describe, expect, test } from 'vitest';
import { readAsAiSdk, toolParts } from './support.ts';

const finish = (over: Partial<Extract<CanonicalEvent, { type: 'finish' }>> = {}): CanonicalEvent => ({
  type: 'finish',
  finishReason: 'stop',
  isError: false,
  pendingToolCallIds: [],
  ...over,
});

const SESSION: CanonicalEvent[] = [
  { type: 'stream-start', model: 'Auto' },
  { type: 'user-message', text: 'list files' },
  { type: 'reasoning-delta', text: 'I should ' },
  { type: 'reasoning-delta', text: 'look.' },
  { type: 'reasoning-end' },
  { type: 'text-delta', text: 'Looking' },
  { type: 'text-delta', text: '…' },
  {
    type: 'tool-call',
    toolCallId: 'c1',
    toolName: 'ls',
    providerToolName: 'lsToolCall',
    input: { path: '.' },
  },
  {
    type: 'tool-result',
    toolCallId: 'c1',
    toolName: 'ls',
    providerToolName: 'lsToolCall',
    status: 'success',
    isError: false,
    output: { files: ['a'] },
  },
  { type: 'text-delta', text: 'One file.' },
  finish(),
];

async function chunksOf(events: Iterable<CanonicalEvent> | AsyncIterable<CanonicalEvent>) {
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of toUIMessageStream(events)) chunks.push(chunk);
  return chunks;
}

describe('toUIMessageStream', () => {
  test('gives blocks with stable ids, a tool part per call, a step per model call, and start and finish around them', async () => {
    expect(await chunksOf(SESSION)).toEqual([
      { type: 'start' },
      { type: 'start-step' },
      { type: 'reasoning-start', id: 'reasoning-1' },
      { type: 'reasoning-delta', id: 'reasoning-1', delta: 'I should ' },
      { type: 'reasoning-delta', id: 'reasoning-1', delta: 'look.' },
      { type: 'reasoning-end', id: 'reasoning-1' },
      { type: 'text-start', id: 'text-1' },
      { type: 'text-delta', id: 'text-1', delta: 'Looking' },
      { type: 'text-delta', id: 'text-1', delta: '…' },
      { type: 'text-end', id: 'text-1' },
      {
        type: 'tool-input-available',
        toolCallId: 'c1',
        toolName: 'ls',
        input: { path: '.' },
        providerExecuted: true,
      },
      { type: 'tool-output-available', toolCallId: 'c1', output: { files: ['a'] } },
      // The model writes again once its call completed: its next call, a step of its own.
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'text-start', id: 'text-2' },
      { type: 'text-delta', id: 'text-2', delta: 'One file.' },
      { type: 'text-end', id: 'text-2' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  test('reads an async iterable as it reads an array', async () => {
    async function* later() {
      for (const event of SESSION) yield event;
    }
    expect(await chunksOf(later())).toEqual(await chunksOf(SESSION));
  });

  test('stops its source when the consumer leaves early', async () => {
    let stopped = false;
    function* source() {
      try {
        yield* SESSION;
      } finally {
        stopped = true;
      }
    }
    for await (const chunk of toUIMessageStream(source())) if (chunk.type === 'text-delta') break;
    expect(stopped).toBe(true);
  });

  test('a failed run ends with its reason as the error chunk, after every part', async () => {
    const chunks = await chunksOf([
      { type: 'text-delta', text: 'Working' },
      {
        type: 'tool-call',
        toolCallId: 'c2',
        toolName: 'shell',
        providerToolName: 'shellToolCall',
        input: {},
      },
      { type: 'error', message: 'The agent exited with code 1: not logged in', code: 'exit-nonzero' },
      finish({ finishReason: 'incomplete', isError: true, pendingToolCallIds: ['c2'] }),
    ]);
    expect(chunks.slice(-6)).toEqual([
      { type: 'text-end', id: 'text-1' },
      expect.objectContaining({ type: 'tool-input-available', toolCallId: 'c2' }),
      { type: 'tool-output-error', toolCallId: 'c2', errorText: UNFINISHED_TOOL_ERROR_TEXT },
      { type: 'finish-step' },
      { type: 'error', errorText: 'The agent exited with code 1: not logged in' },
      { type: 'finish', finishReason: 'other' },
    ]);
  });

  test("an error result without an error event reports the result's text", async () => {
    const chunks = await chunksOf([finish({ finishReason: 'error', isError: true, text: 'Rate limited.' })]);
    expect(chunks).toEqual([
      { type: 'start' },
      { type: 'error', errorText: 'Rate limited.' },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('a log whose first session failed ends as failed, though a later one succeeded', async () => {
    const chunks = await chunksOf([
      finish({ finishReason: 'error', isError: true, text: 'Quota reached.' }),
      { type: 'stream-start' },
      finish({ finishReason: 'stop' }),
    ]);
    expect(chunks.slice(-2)).toEqual([
      { type: 'error', errorText: 'Quota reached.' },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('a result without its call opens the tool part first, as the AI SDK needs', async () => {
    const { message } = await readAsAiSdk([
      {
        type: 'tool-result',
        toolCallId: 'orphan',
        toolName: 'read',
        providerToolName: 'readToolCall',
        status: 'error',
        isError: true,
        output: { errorMessage: 'File not found' },
      },
    ]);
    expect(toolParts(message)).toEqual([
      expect.objectContaining({
        toolCallId: 'orphan',
        state: 'output-error',
        errorText: 'error: File not found',
      }),
    ]);
  });

  test('options: a message id, dynamic tools, no reasoning', async () => {
    const chunks: UIMessageChunk[] = [];
    const options = { messageId: 'm1', dynamicTools: true, reasoning: false };
    for await (const chunk of toUIMessageStream(SESSION, options)) chunks.push(chunk);
    expect(chunks[0]).toEqual({ type: 'start', messageId: 'm1' });
    expect(chunks.some((chunk) => chunk.type.startsWith('reasoning'))).toBe(false);
    expect(chunks.find((chunk) => chunk.type === 'tool-input-available')).toMatchObject({ dynamic: true });
    const { message } = await readAsAiSdk(SESSION, options);
    expect(message?.parts.find((part) => part.type === 'dynamic-tool')).toMatchObject({
      toolName: 'ls',
      state: 'output-available',
    });
  });

  test('the encoder gives nothing after end()', () => {
    const encoder = createUIMessageEncoder();
    encoder.encode({ type: 'text-delta', text: 'a' });
    expect(encoder.end().at(-1)).toEqual({ type: 'finish' });
    expect(encoder.encode({ type: 'text-delta', text: 'b' })).toEqual([]);
    expect(encoder.end()).toEqual([]);
  });

  test("a run of several model calls is as many steps, which the AI SDK's convertToModelMessages keeps apart", async () => {
    const call = (id: string, modelCallId: string): CanonicalEvent[] => [
      { type: 'text-delta', text: `Reading ${id}.`, modelCallId },
      { type: 'tool-call', toolCallId: id, toolName: 'read', providerToolName: 'readToolCall', input: {} },
      {
        type: 'tool-result',
        toolCallId: id,
        toolName: 'read',
        providerToolName: 'readToolCall',
        status: 'success',
        isError: false,
        output: { content: id },
      },
    ];
    const events = [...call('a', 'm1'), ...call('b', 'm2'), { type: 'text-delta', text: 'Done.' }, finish()];
    const { message } = await readAsAiSdk(events as CanonicalEvent[]);
    expect(message?.parts.filter((part) => part.type === 'step-start')).toHaveLength(3);
    if (message === undefined) throw new Error('no message');
    const modelMessages = await convertToModelMessages([message]);
    // One assistant message per model call, each with its own text, call and result, in order.
    expect(modelMessages.map((model) => model.role)).toEqual(['assistant', 'assistant', 'assistant']);
    expect(
      modelMessages.map((model) =>
        Array.isArray(model.content) ? model.content.map((part) => part.type) : [typeof model.content],
      ),
    ).toEqual([['text', 'tool-call', 'tool-result'], ['text', 'tool-call', 'tool-result'], ['text']]);
  });

  test('a call started again after it completed keeps its part and its output', async () => {
    // The start again, and no completion after it: the call did complete, and its part must not fail.
    const callEvent = SESSION.find((event) => event.type === 'tool-call') as CanonicalEvent;
    const events = [...SESSION.slice(0, -1), callEvent, finish()];
    const { message } = await readAsAiSdk(events);
    expect(toolParts(message)).toEqual([
      expect.objectContaining({ toolCallId: 'c1', state: 'output-available', output: { files: ['a'] } }),
    ]);
  });
});

describe('toolErrorText', () => {
  test.each([
    [{ status: 'error', output: { errorMessage: 'File not found' } }, 'error: File not found'],
    [
      { status: 'failure', output: { exitCode: 127, stdout: '', stderr: 'python: command not found\n' } },
      'failure (exit code 127): python: command not found',
    ],
    [{ status: 'rejected', output: { command: 'rm -rf /', reason: '' } }, 'rejected'],
    [
      { status: 'rejected', output: { reason: 'MCP tool execution rejected by user ' } },
      'rejected: MCP tool execution rejected by user',
    ],
    [{ status: 'failure', output: { error: { message: 'boom' } } }, 'failure: boom'],
    [{ status: 'timeout', output: null }, 'timeout'],
    [{ status: 'failure', output: 'plain words' }, 'failure: plain words'],
  ])('%j → %s', (result, expected) => {
    expect(toolErrorText(result)).toBe(expected);
  });

  test('quotes at most 2000 characters of a long reason', () => {
    const text = toolErrorText({ status: 'failure', output: { stderr: 'x'.repeat(10_000) } });
    expect(text).toBe(`failure: ${'x'.repeat(2000)}…`);
  });
});

const toolId = fc.constantFrom('a', 'b', 'c');
const eventArb: fc.Arbitrary<CanonicalEvent> = fc.oneof(
  fc.record({ type: fc.constant('text-delta' as const), text: fc.string({ maxLength: 3 }) }),
  fc.record({ type: fc.constant('reasoning-delta' as const), text: fc.string({ maxLength: 3 }) }),
  fc.constant({ type: 'reasoning-end' as const }),
  fc.record({
    type: fc.constant('tool-call' as const),
    toolCallId: toolId,
    toolName: fc.constantFrom('read', 'shell'),
    providerToolName: fc.constant('x'),
    input: fc.jsonValue(),
  }),
  fc.record({
    type: fc.constant('tool-result' as const),
    toolCallId: toolId,
    toolName: fc.constantFrom('read', 'shell'),
    providerToolName: fc.constant('x'),
    status: fc.constantFrom('success', 'failure', 'rejected'),
    isError: fc.boolean(),
    output: fc.jsonValue(),
  }),
  fc.record({ type: fc.constant('error' as const), message: fc.string() }),
  fc.record({
    type: fc.constant('finish' as const),
    finishReason: fc.constantFrom('stop' as const, 'error' as const, 'incomplete' as const),
    isError: fc.boolean(),
    pendingToolCallIds: fc.constant<string[]>([]),
  }),
  fc.constant({ type: 'stream-start' as const }),
);

/** The rules a UI message stream follows: one start first, one finish last, blocks opened before use and closed. */
function expectWellFormed(chunks: readonly UIMessageChunk[]): void {
  expect(chunks[0]?.type).toBe('start');
  expect(chunks.at(-1)?.type).toBe('finish');
  expect(chunks.filter((chunk) => chunk.type === 'start' || chunk.type === 'finish')).toHaveLength(2);
  const open = new Set<string>();
  const tools = new Map<string, 'input' | 'done'>();
  let inStep = false;
  for (const chunk of chunks) {
    // Every part is made inside a step, and steps do not nest.
    if (chunk.type === 'start-step' || chunk.type === 'finish-step') {
      expect([inStep, open.size]).toEqual([chunk.type === 'finish-step', 0]);
      inStep = chunk.type === 'start-step';
    } else if (!['start', 'finish', 'error'].includes(chunk.type)) expect(inStep, chunk.type).toBe(true);
    if (chunk.type === 'text-start' || chunk.type === 'reasoning-start') {
      expect(open.size).toBe(0);
      open.add(chunk.id);
    } else if (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta') {
      expect(open.has(chunk.id)).toBe(true);
    } else if (chunk.type === 'text-end' || chunk.type === 'reasoning-end') {
      expect(open.delete(chunk.id)).toBe(true);
    } else if (chunk.type === 'tool-input-available') {
      tools.set(chunk.toolCallId, 'input');
    } else if (chunk.type === 'tool-output-available' || chunk.type === 'tool-output-error') {
      expect(tools.get(chunk.toolCallId)).toBe('input');
      tools.set(chunk.toolCallId, 'done');
    }
  }
  expect(open.size).toBe(0);
  expect(inStep).toBe(false);
  expect([...tools.values()].every((state) => state === 'done')).toBe(true);
}

describe('every event sequence', () => {
  propertyTest.prop([fc.array(eventArb, { maxLength: 40 })])(
    'gives a well-formed stream whose text and reasoning are the events’ own, in one part per block',
    async (events) => {
      const chunks = await chunksOf(events);
      expectWellFormed(chunks);
      const deltas = (type: string) =>
        chunks.map((chunk) => (chunk.type === type && 'delta' in chunk ? chunk.delta : '')).join('');
      const texts = (type: string) =>
        events.map((event) => (event.type === type && 'text' in event ? event.text : '')).join('');
      expect(deltas('text-delta')).toBe(texts('text-delta'));
      expect(deltas('reasoning-delta')).toBe(texts('reasoning-delta'));
      const { message } = await readAsAiSdk(events);
      // One part per call id in each session (a session's ids are its own; the next may use them again).
      const sessionsOf = new Map<string, number>();
      let session = 0;
      const seen = new Set<string>();
      for (const event of events) {
        if ('toolCallId' in event && !seen.has(`${session}/${event.toolCallId}`)) {
          seen.add(`${session}/${event.toolCallId}`);
          sessionsOf.set(event.toolCallId, (sessionsOf.get(event.toolCallId) ?? 0) + 1);
        }
        if (event.type === 'finish') session += 1;
      }
      const parts = toolParts(message).map((part) => part.toolCallId);
      expect([...new Set(parts)].sort()).toEqual([...sessionsOf.keys()].sort());
      for (const [id, sessions] of sessionsOf)
        expect(parts.filter((part) => part === id).length).toBeLessThanOrEqual(sessions);
    },
  );
});

/** What each step holds, in order: `T` a text delta, `c:ID` a call, `r:ID` its result or error. */
function stepContents(chunks: readonly { type: string; toolCallId?: string }[]): string[][] {
  const steps: string[][] = [];
  let step: string[] = [];
  for (const chunk of chunks) {
    if (chunk.type === 'finish-step') {
      steps.push(step);
      step = [];
    } else if (chunk.type === 'text-delta') step.push('T');
    else if (chunk.type === 'tool-input-available' || chunk.type === 'tool-call')
      step.push(`c:${chunk.toolCallId}`);
    else if (chunk.type.startsWith('tool-output') || chunk.type === 'tool-result')
      step.push(`r:${chunk.toolCallId}`);
  }
  return steps.filter((contents) => contents.length > 0);
}

const modelCallArb = fc.constantFrom('m1', 'm2', 'm3', '');
const callIdArb = fc.constantFrom('a', 'b', 'c');
/** One session's model output and tool traffic, with and without model call ids (`''`: none). */
const turnEventArb: fc.Arbitrary<CanonicalEvent> = fc
  .tuple(fc.constantFrom('text', 'call', 'result'), callIdArb, modelCallArb)
  .map(([kind, toolCallId, modelCallId]): CanonicalEvent => {
    const model = modelCallId === '' ? {} : { modelCallId };
    const tool = { toolCallId, toolName: 'read', providerToolName: 'readToolCall' };
    if (kind === 'text') return { type: 'text-delta', text: 'x', ...model };
    if (kind === 'call') return { type: 'tool-call', ...tool, input: {}, ...model };
    return { type: 'tool-result', ...tool, status: 'success', isError: false, output: {} };
  });

describe('steps', () => {
  propertyTest.prop([fc.array(turnEventArb, { maxLength: 24 })])(
    'are cut where the harness cuts them, for any turn',
    async (events) => {
      const harness = createTurnParts({ harnessId: 'cursor' });
      const parts = [
        ...events.flatMap((event) => harness.map(event)),
        ...harness.end({ ok: true, finish: undefined, chatId: undefined }),
      ];
      expect(stepContents(await chunksOf([...events, finish()]))).toEqual(
        stepContents(parts as { type: string; toolCallId?: string }[]),
      );
    },
  );

  test('a later session may use its call ids again, for calls of its own', async () => {
    const SESSION_CALL = SESSION.filter(
      (event) => event.type === 'tool-call' || event.type === 'tool-result',
    );
    const { message } = await readAsAiSdk([...SESSION_CALL, finish(), ...SESSION_CALL, finish()]);
    expect(toolParts(message).map((part) => [part.toolCallId, part.state])).toEqual([
      ['c1', 'output-available'],
      ['c1', 'output-available'],
    ]);
  });
});

describe('a source that throws', () => {
  test('ends the message as a failed run: open parts finished, an error saying why, then finish', async () => {
    async function* failing(): AsyncGenerator<CanonicalEvent> {
      yield {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'shell',
        providerToolName: 'shellToolCall',
        input: {},
      };
      throw new Error('the pipe broke');
    }
    const chunks: UIMessageChunk[] = [];
    for await (const chunk of toUIMessageStream(failing())) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      'start',
      'start-step',
      'tool-input-available',
      'tool-output-error',
      'finish-step',
      'error',
      'finish',
    ]);
    expect(chunks.at(-2)).toEqual({ type: 'error', errorText: "the run's events stopped: the pipe broke" });
  });
});
