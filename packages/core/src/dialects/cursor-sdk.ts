/**
 * The `cursor-sdk` dialect: what programs built on `@cursor/sdk` log. Three record forms, each told by fields no other
 * dialect writes:
 *
 * - an `SDKMessage` as `run.stream()` yields it (`agent_id` and `run_id` beside `type`);
 * - the JSONL store's `run_events.ndjson` rows (`eventType: "run_stream_event"`, the envelope in `payload`) and the
 *   envelopes themselves (`schemaVersion`, `type: sdk_message | result | done`, `agentId`, `runId`);
 * - the store's `runs.ndjson` rows (`runId`, `agentId`, `turnNumber`, `status`): one whole run each, read as its end.
 *
 * A run (one prompt of an agent) is a session: `sessionId` is the agent's id, `runId` the run's. Tool payloads stay as
 * sent (the SDK calls `args` and `result` unstable).
 */

import type { Detection, Dialect, DialectContext, JsonObject, RecordName } from '../dialect.ts';
import type {
  AgentErrorEvent,
  CanonicalEvent,
  FinishEvent,
  InteractionEvent,
  SourceLocation,
  StatusEvent,
  StreamStartEvent,
  TextDeltaEvent,
  TurnTokens,
  Usage,
} from '../events/index.ts';
import { asNumber, asObject, asString, assignDefined, isJsonObject, ownEntry } from '../json-values.ts';
import { malformedRecord } from '../malformed-record.ts';
import { rememberCall } from '../open-calls.ts';
import { reportedCount } from '../token-counts.ts';
import { typeNameOf, unknownEvent } from '../unknown-event.ts';
import { messageText, NO_EVENTS } from './cli-records.ts';
import { encodeCursorSdk } from './cursor-sdk-encoder.ts';
import { ENVELOPE_THINKING_PREFIXES, reasoningSkipPrefixes } from './reasoning-skip-filter.ts';
import { schemaValidator } from './schema-validation.ts';
import { isSdkMessage } from './sdk-message-shape.ts';
import { toolCallEvent, toolResultEvent } from './tool-events.ts';
import { toolNameOfLabel } from './tool-names.ts';

/** Runs whose end was read, remembered so that a run's `FINISHED` status, `result` and `done` end it once. */
const MAX_ENDED_RUNS = 64;

/** Per-stream state of the `cursor-sdk` dialect: bounded by the open calls and the runs just ended. */
export interface CursorSdkState {
  /** Started calls by `call_id`: their names, for the completion. */
  calls: Map<string, { toolName: string; providerToolName: string }>;
  /** Runs whose end was emitted, newest last. */
  ended: string[];
  /** The run whose thinking is open: its `reasoning-end` comes before the run's next other message. */
  reasoningRun: string | undefined;
  /** Token counts of the current run's turns, summed into its end. */
  runUsage: { runId: string; usage: Usage } | undefined;
  /** The request id the current run named (`request` message), for its end. */
  runRequest: { runId: string; requestId: string } | undefined;
}

function createCursorSdkState(): CursorSdkState {
  return { calls: new Map(), ended: [], reasoningRun: undefined, runUsage: undefined, runRequest: undefined };
}

/** Where an event comes from: the agent (the session), the run and the record. */
interface Origin {
  agentId: string | undefined;
  runId: string | undefined;
  loc: SourceLocation;
}

function placed<E extends CanonicalEvent>(event: E, origin: Origin): E {
  event.loc = origin.loc;
  if (origin.agentId !== undefined) {
    event.sessionId = origin.agentId;
    event.agentId = origin.agentId;
  }
  if (origin.runId !== undefined) event.runId = origin.runId;
  return event;
}

const ENVELOPE_TYPES = new Set(['sdk_message', 'result', 'done']);

function isEnvelope(record: JsonObject): boolean {
  return typeof record.schemaVersion === 'number' && ENVELOPE_TYPES.has(record.type as string);
}

function isRunEventRow(record: JsonObject): boolean {
  return record.eventType === 'run_stream_event' && 'payload' in record;
}

function isRunRow(record: JsonObject): boolean {
  return (
    typeof record.runId === 'string' &&
    typeof record.agentId === 'string' &&
    typeof record.turnNumber === 'number' &&
    typeof record.status === 'string'
  );
}

function detectCursorSdk(record: JsonObject): Detection {
  return isSdkMessage(record) || isEnvelope(record) || isRunEventRow(record) || isRunRow(record)
    ? 'distinctive'
    : 'foreign';
}

function hasEnded(state: CursorSdkState, runId: string | undefined): boolean {
  return runId !== undefined && state.ended.includes(runId);
}

function markEnded(state: CursorSdkState, runId: string | undefined): void {
  if (runId === undefined) return;
  state.ended.push(runId);
  if (state.ended.length > MAX_ENDED_RUNS) state.ended.shift();
}

/** The SDK's `TokenUsage` with each count the SDK does not give as `null`. */
function turnTokens(usage: JsonObject): TurnTokens {
  const count = (field: string): number | null => reportedCount(usage[field]) ?? null;
  return {
    inputTokens: count('inputTokens'),
    outputTokens: count('outputTokens'),
    cacheReadTokens: count('cacheReadTokens'),
    cacheWriteTokens: count('cacheWriteTokens'),
    reasoningTokens: count('reasoningTokens'),
    totalTokens: count('totalTokens'),
  };
}

function addUsage(state: CursorSdkState, runId: string | undefined, tokens: TurnTokens): void {
  if (runId === undefined) return;
  if (state.runUsage?.runId !== runId) state.runUsage = { runId, usage: {} };
  const sum = state.runUsage.usage;
  for (const field of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const) {
    const count = tokens[field];
    if (count !== null) sum[field] = (sum[field] ?? 0) + count;
  }
}

/** Run statuses that end a run, in the SDK's three vocabularies, by what the end means. */
const ENDINGS: Readonly<Record<string, 'stop' | 'error' | 'incomplete'>> = {
  FINISHED: 'stop',
  finished: 'stop',
  ERROR: 'error',
  error: 'error',
  CANCELLED: 'error',
  cancelled: 'error',
  EXPIRED: 'error',
  expired: 'error',
};

/**
 * A run's end: an `error` (with the SDK's message or code) then its `finish`, once per run. `stopReason` is the status
 * as the SDK wrote it.
 */
function endRun(
  state: CursorSdkState,
  origin: Origin,
  status: string,
  fields: {
    message?: string | undefined;
    code?: string | undefined;
    text?: string | undefined;
    usage?: Usage | undefined;
    requestId?: string | undefined;
    durationMs?: number | undefined;
  },
): readonly CanonicalEvent[] {
  if (hasEnded(state, origin.runId)) return NO_EVENTS;
  markEnded(state, origin.runId);
  const reason = ownEntry(ENDINGS, status) ?? 'incomplete';
  const isError = reason === 'error';
  const runUsage = state.runUsage?.runId === origin.runId ? state.runUsage?.usage : undefined;
  const requestId = state.runRequest?.runId === origin.runId ? state.runRequest?.requestId : undefined;
  const finish = placed(
    assignDefined<FinishEvent>(
      { type: 'finish', finishReason: reason, isError, pendingToolCallIds: [], stopReason: status },
      {
        text: fields.text,
        // A copy: usage the run reports after its end (a repeated message) must not change a finish already given.
        usage:
          fields.usage ??
          (runUsage !== undefined && Object.keys(runUsage).length > 0 ? { ...runUsage } : undefined),
        requestId: fields.requestId ?? requestId,
        durationMs: fields.durationMs,
      },
    ),
    origin,
  );
  if (!isError) return [finish];
  const lower = status.toLowerCase();
  const message =
    fields.message ?? (fields.code === undefined ? `the run ended with status ${status}` : fields.code);
  const error: AgentErrorEvent = placed({ type: 'error', message }, origin);
  if (lower === 'cancelled' || lower === 'expired') error.code = lower;
  else if (fields.code !== undefined) error.code = fields.code;
  return [error, finish];
}

function toolCallMessage(
  message: JsonObject,
  state: CursorSdkState,
  origin: Origin,
): readonly CanonicalEvent[] {
  const id = asString(message.call_id);
  const name = asString(message.name) ?? 'unknown';
  if (id === undefined) return [malformedRecord('tool_call without a string call_id', message, origin.loc)];
  const status = message.status;
  if (status === 'running') {
    if (state.calls.has(id)) return NO_EVENTS;
    return [startCall(state, id, name, message.args ?? null, origin)];
  }
  if (status !== 'completed' && status !== 'error')
    return [unknownEvent(message, 'tool_call', origin.loc, origin.agentId)];
  const started = state.calls.get(id);
  state.calls.delete(id);
  const result = placed(
    toolResultEvent({
      toolCallId: id,
      toolName: started?.toolName ?? toolNameOfLabel(name),
      providerToolName: started?.providerToolName ?? name,
      status: status === 'completed' && !failedResult(message.result) ? 'success' : 'error',
      output: message.result ?? null,
      durationMs: undefined,
    }),
    origin,
  );
  if (started === undefined && message.args !== undefined) result.input = message.args;
  return [result];
}

/**
 * Whether a completed call's result says it failed: a local run ends every call `completed`, and tells a failure only
 * in its result (`{status: "error", error}`).
 */
function failedResult(result: unknown): boolean {
  return isJsonObject(result) && result.status === 'error';
}

function startCall(state: CursorSdkState, id: string, name: string, input: unknown, origin: Origin) {
  const toolName = toolNameOfLabel(name);
  rememberCall(state.calls, id, { toolName, providerToolName: name });
  return placed(toolCallEvent(id, toolName, name, input, undefined), origin);
}

/** An assistant message: its text, and a call of each `tool_use` block not already started by a `tool_call`. */
function assistantMessage(
  message: JsonObject,
  state: CursorSdkState,
  origin: Origin,
): readonly CanonicalEvent[] {
  const events: CanonicalEvent[] = [];
  const text = messageText(message.message);
  if (text !== undefined && text !== '') events.push(placed({ type: 'text-delta', text }, origin));
  const content = asObject(message.message)?.content;
  if (Array.isArray(content)) {
    for (const block of content) {
      if (!isJsonObject(block) || block.type !== 'tool_use') continue;
      const id = asString(block.id);
      if (id === undefined || state.calls.has(id)) continue;
      events.push(startCall(state, id, asString(block.name) ?? 'unknown', block.input ?? null, origin));
    }
  }
  return events;
}

/**
 * The model a `ModelSelection` names, in the bracketed form Cursor gives a model with parameters elsewhere (ACP's
 * `composer-2.5[fast=true]`): the parameters, the fast variant among them, are part of what the run cost.
 */
function modelNameOf(selection: unknown): string | undefined {
  const model = asObject(selection);
  const id = asString(model?.id);
  if (id === undefined || !Array.isArray(model?.params)) return id;
  const params: string[] = [];
  for (const param of model.params) {
    const name = asString(asObject(param)?.id);
    const value = asObject(param)?.value;
    if (name !== undefined && (typeof value === 'string' || typeof value === 'boolean'))
      params.push(`${name}=${String(value)}`);
  }
  return params.length === 0 ? id : `${id}[${params.join(',')}]`;
}

function sdkMessageEvents(
  message: JsonObject,
  state: CursorSdkState,
  origin: Origin,
): readonly CanonicalEvent[] {
  switch (message.type) {
    case 'system':
      // Only `init` starts a run; a later system message (`compact_boundary`) is said, not a new session.
      if (message.subtype !== undefined && message.subtype !== 'init')
        return [unknownEvent(message, 'system', origin.loc, origin.agentId)];
      return [
        placed(
          assignDefined<StreamStartEvent>({ type: 'stream-start' }, { model: modelNameOf(message.model) }),
          origin,
        ),
      ];
    case 'user':
      return [placed({ type: 'user-message', text: messageText(message.message) ?? '' }, origin)];
    case 'assistant':
      return assistantMessage(message, state, origin);
    case 'thinking': {
      if (typeof message.text !== 'string')
        return [malformedRecord('thinking without a string text', message, origin.loc)];
      // The SDK ends a thinking block with an empty one (with its `thinking_duration_ms`).
      if (message.text === '') {
        if (state.reasoningRun === undefined) return NO_EVENTS;
        state.reasoningRun = undefined;
        return [placed({ type: 'reasoning-end' }, origin)];
      }
      state.reasoningRun = origin.runId ?? '';
      return [placed({ type: 'reasoning-delta', text: message.text }, origin)];
    }
    case 'tool_call':
      return toolCallMessage(message, state, origin);
    case 'status': {
      const status = asString(message.status) ?? '';
      if (ownEntry(ENDINGS, status) !== undefined)
        return endRun(state, origin, status, { message: asString(message.message) });
      return [
        placed(
          assignDefined<StatusEvent>(
            { type: 'status', kind: 'status', status },
            { message: asString(message.message) },
          ),
          origin,
        ),
      ];
    }
    case 'request': {
      const requestId = asString(message.request_id);
      if (requestId !== undefined && origin.runId !== undefined)
        state.runRequest = { runId: origin.runId, requestId };
      return [
        placed(
          assignDefined<InteractionEvent>(
            { type: 'interaction', phase: 'request', queryType: 'request' },
            { queryId: requestId },
          ),
          origin,
        ),
      ];
    }
    case 'task':
      return [
        placed(
          assignDefined<StatusEvent>(
            { type: 'status', kind: 'task-notification' },
            { status: asString(message.status), message: asString(message.text) },
          ),
          origin,
        ),
      ];
    case 'usage': {
      const usage = asObject(message.usage);
      if (usage === undefined) return [malformedRecord('usage without a usage object', message, origin.loc)];
      const tokens = turnTokens(usage);
      addUsage(state, origin.runId, tokens);
      return [placed({ type: 'usage', tokens }, origin)];
    }
  }
  return [unknownEvent(message, typeNameOf(message.type), origin.loc, origin.agentId)];
}

/** A `thinking` run ends at the run's next other message. */
function withReasoningEnd(
  message: JsonObject,
  state: CursorSdkState,
  origin: Origin,
  events: readonly CanonicalEvent[],
) {
  if (state.reasoningRun === undefined || message.type === 'thinking') return events;
  state.reasoningRun = undefined;
  return [placed({ type: 'reasoning-end' }, origin), ...events];
}

function messageEvents(
  message: JsonObject,
  state: CursorSdkState,
  loc: SourceLocation,
): readonly CanonicalEvent[] {
  const origin: Origin = { agentId: asString(message.agent_id), runId: asString(message.run_id), loc };
  return withReasoningEnd(message, state, origin, sdkMessageEvents(message, state, origin));
}

function envelopeEvents(
  envelope: JsonObject,
  state: CursorSdkState,
  loc: SourceLocation,
): readonly CanonicalEvent[] {
  const origin: Origin = { agentId: asString(envelope.agentId), runId: asString(envelope.runId), loc };
  switch (envelope.type) {
    case 'sdk_message': {
      const message = asObject(envelope.message);
      if (message === undefined || !isSdkMessage(message))
        return [malformedRecord('sdk_message envelope without an SDK message', envelope, loc)];
      return messageEvents(message, state, loc);
    }
    case 'result':
      return endRun(state, origin, asString(envelope.status) ?? 'error', {
        code: asString(envelope.errorCode),
      });
    default:
      // `done`: the run's stream ends; a run it ends without a result is cut, as the end of input would.
      return hasEnded(state, origin.runId) ? NO_EVENTS : endRun(state, origin, 'done', {});
  }
}

/** A `runs.ndjson` row: the run's end, with what the row knows of it. */
function runRowEvents(
  row: JsonObject,
  state: CursorSdkState,
  loc: SourceLocation,
): readonly CanonicalEvent[] {
  const origin: Origin = { agentId: asString(row.agentId), runId: asString(row.runId), loc };
  const status = asString(row.status) ?? '';
  const startedAt = asNumber(row.startedAt);
  const endedAt = asNumber(row.endedAt);
  const usage = asObject(row.usage);
  // The row names the run's model as the SDK's `system` message does; nothing else in `runs.ndjson` would.
  const model = modelNameOf(row.model);
  const ending = endRun(state, origin, status, {
    text: asString(row.result),
    message: asString(row.error),
    usage: usage === undefined ? undefined : toUsage(turnTokens(usage)),
    requestId: asString(row.requestId),
    durationMs:
      startedAt !== undefined && endedAt !== undefined && endedAt >= startedAt
        ? endedAt - startedAt
        : undefined,
  });
  if (ending.length === 0) return ending;
  // A row is a whole run with no stream before it: its opening, as a lone result gets one, with the model.
  const start = placed(
    assignDefined<StreamStartEvent>({ type: 'stream-start' }, { model, requestId: asString(row.requestId) }),
    origin,
  );
  const text = asString(row.result);
  const succeeded = ending.every((event) => event.type !== 'error');
  const opening: CanonicalEvent[] =
    succeeded && text !== undefined && text !== ''
      ? [start, placed({ type: 'text-delta', text } satisfies TextDeltaEvent, origin)]
      : [start];
  return [...opening, ...ending];
}

function toUsage(tokens: TurnTokens): Usage | undefined {
  const usage: Usage = {};
  for (const field of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const) {
    const count = tokens[field];
    if (count !== null) usage[field] = count;
  }
  return Object.keys(usage).length > 0 ? usage : undefined;
}

function normalizeCursorSdk(
  record: JsonObject,
  context: DialectContext<CursorSdkState>,
): readonly CanonicalEvent[] {
  const { state, loc } = context;
  if (isRunEventRow(record)) {
    const payload = asObject(record.payload);
    if (payload === undefined || !isEnvelope(payload))
      return [unknownEvent(record, 'run_stream_event', loc, asString(record.agentId))];
    return envelopeEvents(payload, state, loc);
  }
  if (isEnvelope(record)) return envelopeEvents(record, state, loc);
  if (isSdkMessage(record)) return messageEvents(record, state, loc);
  return runRowEvents(record, state, loc);
}

/** An SDK message's own name: its `type`, and its `subtype` or a tool call's status. */
function messageName(message: JsonObject): RecordName {
  const type = asString(message.type) ?? null;
  const within = asString(message.subtype) ?? (type === 'tool_call' ? asString(message.status) : undefined);
  return { type, subtype: within ?? null };
}

/** A name in one piece, `type` and `subtype` joined by `separator`. */
function joinedName({ type, subtype }: RecordName, separator: string): string | null {
  return type === null || subtype === null ? type : `${type}${separator}${subtype}`;
}

/** An envelope by what it holds: a message's name, or a result's status. */
function envelopeName(envelope: JsonObject): RecordName {
  const type = asString(envelope.type) ?? null;
  if (type === 'sdk_message')
    return { type, subtype: joinedName(messageName(asObject(envelope.message) ?? {}), '/') };
  if (type === 'result') return { type, subtype: asString(envelope.status) ?? null };
  return { type, subtype: null };
}

/**
 * Names each record by what it holds: a message by its type (a tool call with its status), an envelope by the message
 * or result inside it, a store's run event row as the envelope it holds (`run_stream_event sdk_message/assistant`),
 * and a store's run row as the run's end (`run/finished`).
 */
function nameCursorSdkRecord(record: JsonObject): RecordName {
  if (isRunEventRow(record)) {
    const payload = asObject(record.payload);
    const held = payload === undefined ? null : joinedName(envelopeName(payload), ' ');
    return { type: 'run_stream_event', subtype: held };
  }
  if (isEnvelope(record)) return envelopeName(record);
  if (isRunRow(record)) return { type: 'run', subtype: asString(record.status) ?? null };
  return messageName(record);
}

/** The `@cursor/sdk` dialect: `run.stream()` messages, the JSONL store's run events and run rows. */
export const cursorSdkDialect: Dialect<CursorSdkState, 'cursor-sdk'> = {
  name: 'cursor-sdk',
  description:
    "@cursor/sdk: SDKMessage lines as run.stream() yields them, and the JSONL store's run_events.ndjson and runs.ndjson.",
  detect: detectCursorSdk,
  validate: schemaValidator('cursor-sdk'),
  createState: createCursorSdkState,
  // The CLI's `thinking` records are none of this dialect's: skipping them when no reasoning is wanted loses it nothing.
  skipPrefixes: reasoningSkipPrefixes(ENVELOPE_THINKING_PREFIXES),
  normalize: normalizeCursorSdk,
  createRecordNamer: () => nameCursorSdkRecord,
  encode: encodeCursorSdk,
};
