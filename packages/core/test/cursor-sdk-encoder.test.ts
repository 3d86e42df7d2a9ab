import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSdkMessageRunStreamEvent, decodeLocalRunStreamEvent, type SDKMessage } from '@cursor/sdk';
import { type CanonicalEvent, cursorSdkDialect, type JsonObject, type TurnTokens } from '@cursor-stream/core';
import { classifyFailure } from '@cursor-stream/core/failures';
import { cutAt } from '@cursor-stream/test-kit/chunking';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { normalizeChunks, normalizeText, withoutLoc } from './support.ts';

/** Checks every written envelope with the SDK's own decoder, and each message with its own envelope builder. */
function expectSdkEnvelopes(lines: readonly JsonObject[]): void {
  for (const line of lines) {
    expect(decodeLocalRunStreamEvent(line)).toEqual(line);
    expect(cursorSdkDialect.validate(line, { strict: true }), JSON.stringify(line)).toEqual([]);
    if (line.type === 'sdk_message')
      expect(createSdkMessageRunStreamEvent(line.message as SDKMessage)).toEqual(line);
  }
}

const text = fc.string({ minLength: 1, maxLength: 8 });
const json = fc.jsonValue({ maxDepth: 2 });

/** Tool names as the SDK gives them, with the canonical name the dialect reads from each. */
const TOOLS = [
  ['shell', 'shell'],
  ['read', 'read'],
  ['edit', 'edit'],
  ['glob', 'glob'],
  ['semSearch', 'semSearch'],
] as const;

type Step =
  | { kind: 'text' | 'user' | 'reasoning'; text: string }
  | {
      kind: 'call';
      tool: number;
      input: unknown;
      end: 'success' | 'error' | 'none' | 'orphan';
      output: unknown;
    }
  | { kind: 'status'; status: 'CREATING' | 'RUNNING'; message: string | undefined }
  | { kind: 'task'; status: string | undefined; message: string | undefined }
  | { kind: 'request'; id: string }
  | { kind: 'usage'; tokens: TurnTokens }
  | { kind: 'plan' | 'context' };

const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom('text' as const, 'user' as const, 'reasoning' as const), text }),
  fc.record({
    kind: fc.constant('call' as const),
    tool: fc.nat(TOOLS.length - 1),
    input: json,
    end: fc.constantFrom('success' as const, 'error' as const, 'none' as const, 'orphan' as const),
    output: json,
  }),
  fc.record({
    kind: fc.constant('status' as const),
    status: fc.constantFrom('CREATING' as const, 'RUNNING' as const),
    message: maybe(text),
  }),
  fc.record({ kind: fc.constant('task' as const), status: maybe(text), message: maybe(text) }),
  fc.record({ kind: fc.constant('request' as const), id: fc.constantFrom('req-1', 'req-2') }),
  fc.record({
    kind: fc.constant('usage' as const),
    tokens: fc.record({
      inputTokens: fc.nat(100_000),
      outputTokens: fc.nat(10_000),
      cacheReadTokens: fc.nat(50_000),
      cacheWriteTokens: fc.nat(50_000),
      totalTokens: fc.nat(200_000),
      reasoningTokens: fc.option(fc.nat(5_000)),
    }),
  }),
  fc.record({ kind: fc.constantFrom('plan' as const, 'context' as const) }),
);

const runShape = fc.record({
  model: maybe(text),
  steps: fc.array(step, { maxLength: 10 }),
  end: fc.constantFrom('FINISHED', 'ERROR', 'CANCELLED', 'EXPIRED'),
  errorMessage: text,
});

type RunShape = typeof runShape extends fc.Arbitrary<infer T> ? T : never;

const AGENT = 'agent-7d1c';

/** Canonical events of one run as the cursor-sdk dialect reads them, with plans and context the SDK cannot say. */
function runEvents(shape: RunShape, index: number): CanonicalEvent[] {
  const runId = `run-${index}`;
  const ids = { sessionId: AGENT, agentId: AGENT, runId };
  const events: CanonicalEvent[] = [];
  const push = (event: CanonicalEvent) => events.push({ ...event, ...ids });
  const usage: Record<string, number> = {};
  let requestId: string | undefined;
  const pending: string[] = [];
  push(shape.model === undefined ? { type: 'stream-start' } : { type: 'stream-start', model: shape.model });
  shape.steps.forEach((step, position) => {
    switch (step.kind) {
      case 'text':
        push({ type: 'text-delta', text: step.text });
        return;
      case 'user':
        push({ type: 'user-message', text: step.text });
        return;
      case 'reasoning':
        // Thinking ends at the run's next other message: an assistant message here.
        push({ type: 'reasoning-delta', text: step.text });
        push({ type: 'reasoning-end' });
        push({ type: 'text-delta', text: step.text });
        return;
      case 'call': {
        const [providerToolName, toolName] = TOOLS[step.tool] ?? TOOLS[0];
        const names = { toolCallId: `call-${index}-${position}`, toolName, providerToolName };
        const status = step.end === 'error' ? 'error' : 'success';
        const result = { type: 'tool-result' as const, ...names, status, isError: status !== 'success' };
        if (step.end === 'orphan') {
          push({ ...result, output: step.output, input: step.input });
          return;
        }
        push({ type: 'tool-call', ...names, input: step.input });
        if (step.end === 'none') pending.push(names.toolCallId);
        else push({ ...result, output: step.output });
        return;
      }
      case 'status':
        push(
          step.message === undefined
            ? { type: 'status', kind: 'status', status: step.status }
            : { type: 'status', kind: 'status', status: step.status, message: step.message },
        );
        return;
      case 'task': {
        const event: CanonicalEvent = { type: 'status', kind: 'task-notification' };
        if (step.status !== undefined) event.status = step.status;
        if (step.message !== undefined) event.message = step.message;
        push(event);
        return;
      }
      case 'request':
        requestId = step.id;
        push({ type: 'interaction', phase: 'request', queryType: 'request', queryId: step.id });
        return;
      case 'usage':
        for (const field of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const)
          usage[field] = (usage[field] ?? 0) + (step.tokens[field] ?? 0);
        push({ type: 'usage', tokens: step.tokens });
        return;
      case 'plan':
        push({ type: 'plan', entries: [{ content: 'a', status: 'pending' }], source: 'plan' });
        return;
      case 'context':
        push({ type: 'usage', context: { used: 10, size: 100 } });
        return;
    }
  });
  const finish: CanonicalEvent = {
    type: 'finish',
    finishReason: shape.end === 'FINISHED' ? 'stop' : 'error',
    isError: shape.end !== 'FINISHED',
    pendingToolCallIds: pending,
    stopReason: shape.end,
  };
  if (Object.keys(usage).length > 0) finish.usage = usage;
  if (requestId !== undefined) finish.requestId = requestId;
  if (shape.end !== 'FINISHED') {
    const code =
      shape.end === 'CANCELLED' || shape.end === 'EXPIRED' ? { code: shape.end.toLowerCase() } : {};
    push({ type: 'error', message: shape.errorMessage, ...code });
    // A cancelled run's own word outranks its message's.
    const failureCode = shape.end === 'CANCELLED' ? 'cancelled' : classifyFailure(shape.errorMessage);
    finish.failure = { message: shape.errorMessage, code: failureCode };
  }
  push(finish);
  return events;
}

const sdkLog = fc
  .array(runShape, { minLength: 1, maxLength: 3 })
  .map((shapes) => shapes.flatMap((shape, index) => runEvents(shape, index)));

/** What the SDK cannot say, as the encoder states: plans, and usage without token counts. */
function sayable(events: readonly CanonicalEvent[]): CanonicalEvent[] {
  return events.filter(
    (event) => event.type !== 'plan' && !(event.type === 'usage' && event.tokens === undefined),
  );
}

describe('the cursor-sdk encoder', () => {
  test.prop([sdkLog, fc.array(fc.nat(), { maxLength: 8 })])(
    'writes runs the dialect reads back in any chunks as the same events, but for what the SDK cannot say; the SDK decodes every envelope',
    (events, cuts) => {
      const lines = cursorSdkDialect.encode?.(events) ?? [];
      expectSdkEnvelopes(lines);
      const written = ndjson(lines);
      const { events: decoded, normalizer } = normalizeChunks(
        cutAt(
          written,
          cuts.map((cut) => cut % (written.length + 1)),
        ),
      );
      expect(normalizer.dialect).toBe('cursor-sdk');
      expect(withoutLoc(decoded)).toEqual(sayable(events));
    },
  );

  test('writes the recorded run back as the envelopes the SDK wrote, but for the result it cannot tell apart', () => {
    const folder = join(CORPUS_DIR, 'cursor-sdk');
    const events = normalizeText(readFileSync(join(folder, 'run-stream-envelopes.ndjson')));
    const lines = cursorSdkDialect.encode?.(events) ?? [];
    expectSdkEnvelopes(lines);
    expect(withoutLoc(normalizeText(ndjson(lines)))).toEqual(withoutLoc(events));
  });
});
