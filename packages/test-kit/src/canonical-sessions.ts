/**
 * A fast-check arbitrary of well-formed canonical sessions, as one dialect could have produced them: its tool names,
 * its result shapes, and `pendingToolCallIds` / synthesized finishes as the normalizer sets them.
 */

import type {
  CanonicalEvent,
  FinishEvent,
  InteractionEvent,
  PlanEvent,
  StatusEvent,
  ToolCallEvent,
  ToolResultEvent,
  UsageEvent,
} from '@cursor-stream/core';
import { classifyFailure } from '@cursor-stream/core/failures';
import fc from 'fast-check';

/** What a dialect can say, for {@link canonicalLog}. */
export interface DialectProfile {
  /** `[toolName, providerToolName]` pairs the dialect writes. */
  tools: readonly (readonly [string, string])[];
  /** Statuses it has, and the output each carries. */
  toolResult: fc.Arbitrary<{ status: string; output: unknown }>;
  /** Whether it names model calls. */
  modelCallIds: boolean;
  /** Whether to mix in `usage` and `plan` events, which other channels than the dialect's may say. */
  channelEvents?: boolean;
}

const key = fc.string({ minLength: 1, maxLength: 6 }).filter((name) => name !== '__proto__');
const jsonObject = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const text = fc.string({ minLength: 1, maxLength: 10 });
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const ARM_STATUSES = ['success', 'failure', 'error', 'rejected', 'timeout', 'spawnError'];

/** Statuses as result arms, outputs as JSON objects (the CLI's and the envelope's). */
export const ARM_RESULTS = fc.record({ status: fc.constantFrom(...ARM_STATUSES), output: jsonObject });

/** The Python wrapper's `result{success, output, exit_code}`: the flag is the status, the rest the output. */
export const WRAPPER_RESULTS = fc
  .record({ success: fc.boolean(), output: fc.string(), exit_code: fc.integer({ min: 0, max: 2 }) })
  .map(({ success, ...output }) => ({ status: success ? 'success' : 'failure', output }));

type Step =
  | { kind: 'user'; text: string }
  | { kind: 'reasoning'; text: string }
  | { kind: 'reasoning-end' }
  | { kind: 'text'; text: string; modelCallId: string | undefined }
  | {
      kind: 'call';
      tool: number;
      input: Record<string, unknown>;
      modelCallId: string | undefined;
      completeAt: number | undefined;
      result: { status: string; output: unknown };
      durationMs: number | undefined;
      orphan: boolean;
    }
  | { kind: 'unknown'; rawType: string; rawSubtype: string | undefined }
  | { kind: 'status'; status: StatusEvent }
  | { kind: 'interaction'; interaction: InteractionEvent }
  | { kind: 'channel'; event: UsageEvent | PlanEvent };

const STATUS_KINDS_WITHOUT_VALUE = [
  'reconnecting',
  'reconnected',
  'retry-starting',
  'retry-resuming',
  'compact-boundary',
  'background-shell-timeout',
  'task-notification',
] as const;

/** A status event as the normalizer reads it off its record: `compacting` and `status` carry the raw `status`. */
const statusEvent: fc.Arbitrary<StatusEvent> = fc
  .record({
    kind: fc.constantFrom(...STATUS_KINDS_WITHOUT_VALUE, 'compacting', 'status'),
    attempt: maybe(fc.nat(5)),
    endpointUrl: maybe(fc.constant('https://agent.example')),
    isResume: maybe(fc.boolean()),
    timestampMs: maybe(fc.nat()),
    extraFields: maybe(fc.constant({ note: [1] })),
  })
  .map(({ kind, ...fields }) => {
    const event: StatusEvent = { type: 'status', kind };
    for (const [key, value] of Object.entries(fields))
      if (value !== undefined) Object.assign(event, { [key]: value });
    if (kind === 'compacting') event.status = 'compacting';
    if (kind === 'status') event.status = 'summarizing';
    return event;
  });

/** A plan request or an auto-rejected answer, with the fields the normalizer reads off `query` and `result`. */
const interactionEvent: fc.Arbitrary<InteractionEvent> = fc
  .record({ request: fc.boolean(), id: fc.nat(9), words: text })
  .map(({ request, id, words }): InteractionEvent => {
    const queryType = 'createPlanRequestQuery';
    if (request) {
      const query = { id, [queryType]: { args: { plan: words, toolCallId: 'q-1' } } };
      return {
        type: 'interaction',
        phase: 'request',
        queryType,
        query,
        queryId: id,
        toolCallId: 'q-1',
        plan: words,
      };
    }
    const result = { rejected: { reason: words } };
    return { type: 'interaction', phase: 'response', queryType, result, outcome: 'rejected', reason: words };
  });

/** A turn's usage (counts, or the context it fills) or a plan's progress. */
const channelEvent: fc.Arbitrary<UsageEvent | PlanEvent> = fc.oneof(
  fc
    .record({
      inputTokens: fc.nat(),
      outputTokens: fc.nat(),
      cacheReadTokens: fc.option(fc.nat()),
      cacheWriteTokens: fc.option(fc.nat()),
      reasoningTokens: fc.option(fc.nat()),
      totalTokens: fc.option(fc.nat()),
    })
    .map((tokens): UsageEvent => ({ type: 'usage', tokens })),
  fc
    .record({ used: fc.option(fc.nat()), size: fc.option(fc.nat()) })
    .map((context): UsageEvent => ({ type: 'usage', context })),
  fc
    .array(fc.record({ content: text, status: fc.constantFrom('pending', 'completed') }), { maxLength: 3 })
    .map((entries): PlanEvent => ({ type: 'plan', entries, source: 'plan' })),
);

function stepArbitrary(profile: DialectProfile): fc.Arbitrary<Step> {
  const modelCallId = profile.modelCallIds
    ? maybe(fc.constantFrom('m-0-ab', 'm-1-cd'))
    : fc.constant(undefined);
  const channel = profile.channelEvents
    ? [fc.record({ kind: fc.constant('channel' as const), event: channelEvent })]
    : [];
  return fc.oneof(
    ...channel,
    fc.record({ kind: fc.constant('user' as const), text }),
    fc.record({ kind: fc.constant('reasoning' as const), text }),
    fc.record({ kind: fc.constant('reasoning-end' as const) }),
    fc.record({ kind: fc.constant('text' as const), text, modelCallId }),
    fc.record({
      kind: fc.constant('call' as const),
      tool: fc.nat(profile.tools.length - 1),
      input: jsonObject,
      modelCallId,
      completeAt: maybe(fc.nat(4)),
      result: profile.toolResult,
      durationMs: maybe(fc.nat(100_000)),
      orphan: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('unknown' as const),
      rawType: fc.constantFrom('heartbeat', 'telemetry'),
      rawSubtype: maybe(fc.constantFrom('request', 'starting')),
    }),
    fc.record({ kind: fc.constant('status' as const), status: statusEvent }),
    fc.record({ kind: fc.constant('interaction' as const), interaction: interactionEvent }),
  );
}

const sessionShape = (profile: DialectProfile) =>
  fc.record({
    sessionId: maybe(fc.constantFrom('s-1', 's-2')),
    start: fc.record({ model: maybe(text), cwd: maybe(text), requestId: maybe(text) }),
    steps: fc.array(stepArbitrary(profile), { maxLength: 10 }),
    end: fc.constantFrom('stop', 'error', 'incomplete'),
    result: fc.record({
      text: maybe(text),
      durationMs: maybe(fc.nat()),
      usage: maybe(fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat() })),
    }),
    errorMessage: text,
  });

type SessionShape = typeof sessionShape extends (profile: DialectProfile) => fc.Arbitrary<infer S>
  ? S
  : never;

function withSession<E extends CanonicalEvent>(event: E, sessionId: string | undefined): E {
  if (sessionId !== undefined) event.sessionId = sessionId;
  return event;
}

/** The events of one session; tool results land where `completeAt` says, later ones after the last step. */
function sessionEvents(shape: SessionShape, profile: DialectProfile, index: number): CanonicalEvent[] {
  const { sessionId } = shape;
  const events: CanonicalEvent[] = [];
  const later: { at: number; event: ToolResultEvent }[] = [];
  const pending: string[] = [];
  const push = (event: CanonicalEvent) => events.push(withSession(event, sessionId));
  const start: CanonicalEvent = { type: 'stream-start' };
  if (shape.start.model !== undefined) start.model = shape.start.model;
  if (shape.start.cwd !== undefined) start.cwd = shape.start.cwd;
  if (shape.start.requestId !== undefined) start.requestId = shape.start.requestId;
  push(start);
  shape.steps.forEach((step, position) => {
    for (const due of later.filter((entry) => entry.at === position)) push(due.event);
    for (const due of later.filter((entry) => entry.at === position))
      pending.splice(pending.indexOf(due.event.toolCallId), 1);
    if (step.kind === 'user' || step.kind === 'reasoning')
      push({ type: step.kind === 'user' ? 'user-message' : 'reasoning-delta', text: step.text });
    else if (step.kind === 'reasoning-end') push({ type: 'reasoning-end' });
    else if (step.kind === 'text')
      push(
        step.modelCallId === undefined
          ? { type: 'text-delta', text: step.text }
          : { type: 'text-delta', text: step.text, modelCallId: step.modelCallId },
      );
    else if (step.kind === 'status') push({ ...step.status });
    else if (step.kind === 'interaction') push({ ...step.interaction });
    else if (step.kind === 'channel') push({ ...step.event });
    else if (step.kind === 'unknown') {
      const raw: Record<string, unknown> = { type: step.rawType };
      if (step.rawSubtype !== undefined) raw.subtype = step.rawSubtype;
      if (sessionId !== undefined) raw.session_id = sessionId;
      const event: CanonicalEvent = { type: 'unknown', rawType: step.rawType, raw };
      if (step.rawSubtype !== undefined) event.rawSubtype = step.rawSubtype;
      push(event);
    } else {
      const [toolName, providerToolName] = profile.tools[step.tool] ?? ['unknown', 'unknown'];
      const toolCallId = `call-${index}-${position}\nfc_${position}`;
      if (!step.orphan) {
        const call: ToolCallEvent = {
          type: 'tool-call',
          toolCallId,
          toolName,
          providerToolName,
          input: step.input,
        };
        if (step.modelCallId !== undefined) call.modelCallId = step.modelCallId;
        push(call);
        pending.push(toolCallId);
      }
      if (step.completeAt !== undefined || step.orphan) {
        const result: ToolResultEvent = {
          type: 'tool-result',
          toolCallId,
          toolName,
          providerToolName,
          status: step.result.status,
          isError: step.result.status !== 'success',
          output: step.result.output,
        };
        if (step.durationMs !== undefined) result.durationMs = step.durationMs;
        // An orphan's completion repeats its arguments, the only place they are.
        if (step.orphan) push({ ...result, input: step.input });
        else later.push({ at: position + 1 + (step.completeAt ?? 0), event: result });
      }
    }
  });
  for (const due of later.filter(
    (entry) => entry.at > shape.steps.length - 1 + 0 && entry.at >= shape.steps.length,
  )) {
    push(due.event);
    pending.splice(pending.indexOf(due.event.toolCallId), 1);
  }
  const finish: FinishEvent = {
    type: 'finish',
    finishReason: shape.end as FinishEvent['finishReason'],
    isError: shape.end === 'error',
    pendingToolCallIds: [...pending],
  };
  if (shape.end !== 'incomplete') {
    if (shape.result.text !== undefined) finish.text = shape.result.text;
    if (shape.result.durationMs !== undefined) finish.durationMs = shape.result.durationMs;
    if (shape.result.usage !== undefined) finish.usage = shape.result.usage;
  }
  if (shape.end === 'error') {
    push({ type: 'error', message: shape.errorMessage });
    finish.failure = { message: shape.errorMessage, code: classifyFailure(shape.errorMessage) };
  }
  push(finish);
  return events;
}

/** Whole logs: one to three sessions back to back, each opened by a `stream-start`. */
export function canonicalLog(profile: DialectProfile): fc.Arbitrary<CanonicalEvent[]> {
  return fc
    .array(sessionShape(profile), { minLength: 1, maxLength: 3 })
    .map((shapes) => shapes.flatMap((shape, index) => sessionEvents(shape, profile, index)));
}
