/**
 * Canonical events written back as `@cursor/sdk` run stream events, the envelopes its JSONL store keeps in
 * `run_events.ndjson`: each `SDKMessage` in an `sdk_message` envelope (the shape the SDK's
 * `createSdkMessageRunStreamEvent` builds), and a run's end as its status message, a `result` and a `done`. The SDK is
 * not a dependency of this package, so the shapes are written here; the tests build and decode them with the SDK's
 * own functions.
 */

import type { JsonObject } from '../dialect.ts';
import {
  type AgentErrorEvent,
  type CanonicalEvent,
  type FinishEvent,
  type StatusEvent,
  type ToolCallEvent,
  type ToolResultEvent,
  type TurnTokens,
  unreachable,
} from '../events/index.ts';
import { ownEntry } from '../json-values.ts';
import { textMessage, withDefined } from './encoder-support.ts';

/** The envelopes' schema version, `LOCAL_RUN_STREAM_SCHEMA_VERSION` of the SDK. */
const SCHEMA_VERSION = 1;

/** The statuses of an `SDKStatusMessage` that leave the run going; the others end it, as a finish does. */
const GOING_STATUSES = new Set(['CREATING', 'RUNNING']);

/** The SDK's run result statuses by a run's ending status. */
const RESULT_STATUS: Readonly<Record<string, string>> = {
  FINISHED: 'finished',
  ERROR: 'error',
  CANCELLED: 'cancelled',
  EXPIRED: 'error',
};

/** What the encoder carries from one event to the next. */
interface EncoderState {
  lines: JsonObject[];
  agentId: string;
  runId: string;
  /** The error just before a finish: said as the ending status's message. */
  error: AgentErrorEvent | undefined;
}

function message(state: EncoderState, fields: JsonObject): void {
  const sdkMessage = { ...fields, agent_id: state.agentId, run_id: state.runId };
  state.lines.push({
    schemaVersion: SCHEMA_VERSION,
    type: 'sdk_message',
    agentId: state.agentId,
    runId: state.runId,
    message: sdkMessage,
  });
}

function envelope(state: EncoderState, type: 'result' | 'done', fields: JsonObject = {}): void {
  state.lines.push({
    schemaVersion: SCHEMA_VERSION,
    type,
    agentId: state.agentId,
    runId: state.runId,
    ...fields,
  });
}

function toolCallMessage(state: EncoderState, event: ToolCallEvent | ToolResultEvent): void {
  const call = { type: 'tool_call', call_id: event.toolCallId, name: event.providerToolName };
  if (event.type === 'tool-call') {
    message(state, withDefined({ ...call, status: 'running' }, { args: event.input }));
    return;
  }
  // The SDK ends a call `completed` or in `error`: every status but success is an error to it.
  const status = event.status === 'success' ? 'completed' : 'error';
  message(state, withDefined({ ...call, status }, { args: event.input, result: event.output }));
}

/** `TokenUsage` with the counts the event knows; a count it does not know stays out, never 0. */
function tokenUsage(tokens: TurnTokens): JsonObject {
  return withDefined(
    {},
    {
      inputTokens: tokens.inputTokens ?? undefined,
      outputTokens: tokens.outputTokens ?? undefined,
      cacheReadTokens: tokens.cacheReadTokens ?? undefined,
      cacheWriteTokens: tokens.cacheWriteTokens ?? undefined,
      totalTokens: tokens.totalTokens ?? undefined,
      reasoningTokens: tokens.reasoningTokens ?? undefined,
    },
  );
}

/**
 * A run's state as a status message, and a task's as a task message. Other channels' statuses (retries, compaction,
 * ACP's session updates) have no SDK form.
 */
function statusMessage(state: EncoderState, event: StatusEvent): void {
  if (event.kind === 'task-notification') {
    message(state, withDefined({ type: 'task' }, { status: event.status, text: event.message }));
    return;
  }
  if (event.kind === 'status' && event.status !== undefined && GOING_STATUSES.has(event.status))
    message(state, withDefined({ type: 'status', status: event.status }, { message: event.message }));
}

/**
 * A run's end: its status message (with the message of the error before it, which the SDK has no other place for),
 * then the `result` and `done` envelopes the store writes after it. The end of input's finish has none.
 */
function finishLines(state: EncoderState, event: FinishEvent): void {
  if (event.finishReason === 'incomplete') return;
  const status =
    event.stopReason !== undefined && event.stopReason in RESULT_STATUS
      ? event.stopReason
      : event.isError
        ? 'ERROR'
        : 'FINISHED';
  const error = state.error;
  state.error = undefined;
  message(state, withDefined({ type: 'status', status }, { message: error?.message }));
  envelope(state, 'result', { status: ownEntry(RESULT_STATUS, status) ?? 'error' });
  envelope(state, 'done');
}

function encodeEvent(state: EncoderState, event: CanonicalEvent): void {
  switch (event.type) {
    case 'stream-start':
      message(
        state,
        withDefined(
          { type: 'system', subtype: 'init' },
          { model: event.model === undefined ? undefined : { id: event.model } },
        ),
      );
      return;
    case 'user-message':
      message(state, { type: 'user', message: textMessage('user', event.text) });
      return;
    case 'text-delta':
      message(state, { type: 'assistant', message: textMessage('assistant', event.text) });
      return;
    case 'reasoning-delta':
      message(state, { type: 'thinking', text: event.text });
      return;
    case 'reasoning-end':
      // Thinking ends at the run's next other message: the SDK has no message for it.
      return;
    case 'tool-call':
    case 'tool-result':
      toolCallMessage(state, event);
      return;
    case 'status':
      statusMessage(state, event);
      return;
    case 'interaction':
      // The SDK's one request is the run's `request_id`; other channels' questions and permissions have no SDK form.
      if (event.queryType === 'request' && event.phase === 'request' && typeof event.queryId === 'string')
        message(state, { type: 'request', request_id: event.queryId });
      return;
    case 'usage':
      // A turn's token counts; the SDK reports no context occupancy or cost in a run's stream.
      if (event.tokens !== undefined) message(state, { type: 'usage', usage: tokenUsage(event.tokens) });
      return;
    case 'error':
      // Said by the run's ending status, when a finish follows.
      state.error = event;
      return;
    case 'finish':
      finishLines(state, event);
      return;
    // The SDK streams no plan; a record the dialect could not read, and a line that was not one, have no SDK form.
    case 'plan':
    case 'unknown':
    case 'invalid-line':
      return;
    default:
      unreachable(event);
  }
}

/**
 * Writes canonical events as `@cursor/sdk` run stream envelopes. An event's session is its agent; events without
 * agent or run ids are written under the last ones named (`agent` and `run` before any).
 */
export function encodeCursorSdk(events: readonly CanonicalEvent[]): JsonObject[] {
  const state: EncoderState = { lines: [], agentId: 'agent', runId: 'run', error: undefined };
  for (const event of events) {
    const agentId = event.agentId ?? event.sessionId;
    if (agentId !== undefined) state.agentId = agentId;
    if (event.runId !== undefined) state.runId = event.runId;
    encodeEvent(state, event);
  }
  return state.lines;
}
