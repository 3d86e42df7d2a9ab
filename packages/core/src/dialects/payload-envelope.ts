/**
 * The payload envelope of a WebSocket app (its "Cursor Agent Output Format" document): `{type, subtype, payload}`
 * with `payload.toolCall.id` and `<kind>ToolCall`, the server's `raw` and `error` wrapper events, and the client's
 * stored records `{id, chatId, timestamp, type, subtype, payload, raw}`.
 */

import type { Detection, Dialect, DialectContext, JsonObject } from '../dialect.ts';
import type { CanonicalEvent, FinishEvent, SourceLocation } from '../events/index.ts';
import { asNumber, asObject, asString, isJsonObject } from '../json-values.ts';
import { malformedRecord } from '../malformed-record.ts';
import { rememberCall } from '../open-calls.ts';
import { markRunExit, runExitSentence } from '../run-exit.ts';
import { typeNameOf, unknownEvent } from '../unknown-event.ts';
import { endAssistantDeltaRun, resetAssistantTurn } from './assistant-text.ts';
import {
  assistantFormOf,
  assistantTextEvents,
  CLI_STREAM_STATE,
  type CliStreamState,
  createCliStreamState,
  errorsText,
  exitCodeOf,
  finishEvent,
  initEvent,
  isFailingExit,
  located,
  messageText,
  NO_EVENTS,
  runRecordEvent,
  startCliSession,
  thinkingEvents,
  userEvent,
} from './cli-records.ts';
import {
  completedCallEvent,
  durationOfCall,
  findToolKind,
  type ResultArm,
  resultArm,
  type StartedCalls,
  startedCall,
} from './official-tool-call.ts';
import { encodePayloadEnvelope } from './payload-envelope-encoder.ts';
import { ENVELOPE_THINKING_PREFIXES, reasoningSkipPrefixes } from './reasoning-skip-filter.ts';
import { schemaValidator } from './schema-validation.ts';
import { toolCallEvent } from './tool-events.ts';

/**
 * Whether a record is the app's closing message, `{type: "result", exitCode}`: what its server sends when the agent's
 * process ends, with the code it exited with (`null` when a signal killed it). The CLI's own `result` always has a
 * `subtype`.
 */
export function isRunClosingRecord(record: JsonObject): boolean {
  if (record.type !== 'result' || record.subtype !== undefined || 'payload' in record) return false;
  return record.exitCode === null || exitCodeOf(record) !== undefined;
}

function detectPayloadEnvelope(record: JsonObject): Detection {
  const type = record.type;
  if (isRunClosingRecord(record)) return 'distinctive';
  // A client's stored record, whatever it holds (the app's `raw` and `error` messages too, under `payload`).
  if (typeof record.chatId === 'string' && isJsonObject(record.payload)) return 'distinctive';
  if (type === 'raw' || type === 'error') return isAppMessage(record) ? 'distinctive' : 'foreign';
  if (!isJsonObject(record.payload)) return 'foreign';
  switch (type) {
    case 'system':
    case 'user':
    case 'thinking':
      return 'shared';
    case 'assistant':
    case 'tool_call':
    case 'result':
    case 'connection':
    case 'retry':
    case 'interaction_query':
      return 'distinctive';
    default:
      return 'foreign';
  }
}

/** The session: the payload's `session_id`, the record's, or a stored record's `chatId` (the agent's chat id). */
function sessionIdOf(record: JsonObject, payload: JsonObject): string | undefined {
  return asString(payload.session_id) ?? asString(record.session_id) ?? asString(record.chatId);
}

/** A completion's status: the app's `exitCode` or `success` flag, else a CLI result arm. */
function envelopeResult(result: unknown): ResultArm {
  if (!isJsonObject(result)) return resultArm(result);
  const exitCode = asNumber(result.exitCode);
  if (exitCode !== undefined) return { status: exitCode === 0 ? 'success' : 'failure', output: result };
  if (typeof result.success === 'boolean')
    return { status: result.success ? 'success' : 'failure', output: result };
  return resultArm(result);
}

function toolEvents(
  record: JsonObject,
  payload: JsonObject,
  calls: StartedCalls,
  loc: SourceLocation,
): readonly CanonicalEvent[] {
  const toolCall = asObject(payload.toolCall);
  const id = asString(toolCall?.id) ?? asString(toolCall?.toolCallId) ?? asString(payload.call_id);
  const sessionId = sessionIdOf(record, payload);
  const subtype = record.subtype;
  if (subtype !== 'started' && subtype !== 'completed')
    return [unknownEvent(record, 'tool_call', loc, sessionId)];
  if (toolCall === undefined || id === undefined) {
    return [malformedRecord(`tool_call/${subtype} without a string payload.toolCall.id`, record, loc)];
  }
  const kind = findToolKind(toolCall);
  if (subtype === 'started') {
    const toolName = kind?.toolName ?? 'unknown';
    const providerToolName = kind?.providerToolName ?? 'unknown';
    rememberCall(calls, id, startedCall(toolName, providerToolName, payload, toolCall));
    // `shellToolCall{name, args}` holds its input in `args`; `writeFileToolCall{path, contents}` is the input.
    const input = kind === undefined ? null : 'args' in kind.body ? kind.body.args : kind.body;
    return [
      located(toolCallEvent(id, toolName, providerToolName, input, payload.model_call_id), loc, sessionId),
    ];
  }
  const result = envelopeResult(toolCall.result ?? kind?.body.result);
  const event = completedCallEvent(id, kind, calls, result, (start) =>
    durationOfCall(payload, toolCall, start),
  );
  return [located(event, loc, sessionId)];
}

function resultEvents(record: JsonObject, payload: JsonObject, state: CliStreamState, loc: SourceLocation) {
  resetAssistantTurn(state.text);
  const exitCode = exitCodeOf(payload) ?? exitCodeOf(record);
  const isError = payload.is_error === true || record.subtype === 'error' || isFailingExit(exitCode);
  const finish = finishEvent(payload, isError, loc, exitCode);
  const sessionId = sessionIdOf(record, payload);
  if (sessionId !== undefined) finish.sessionId = sessionId;
  const message = asString(payload.error) ?? errorsText(payload.errors);
  if (!isError || message === undefined) return [finish];
  return [located({ type: 'error', message }, loc, sessionId), finish];
}

function payloadEvents(
  record: JsonObject,
  payload: JsonObject,
  state: CliStreamState,
  loc: SourceLocation,
): readonly CanonicalEvent[] {
  const sessionId = sessionIdOf(record, payload);
  switch (record.type) {
    case 'thinking':
      return thinkingEvents(record, payload.content ?? payload.text, loc, sessionId);
    case 'assistant': {
      const text = messageText(payload.message) ?? asString(payload.text);
      if (text === undefined) return NO_EVENTS;
      return assistantTextEvents(
        state.text,
        text,
        assistantFormOf(payload),
        payload.model_call_id,
        loc,
        sessionId,
      );
    }
    case 'tool_call':
      return toolEvents(record, payload, state.calls, loc);
    case 'system':
      if (record.subtype !== 'init') return runPayloadEvents(record, payload, loc);
      startCliSession(state);
      return [initEvent(payload, loc, sessionId)];
    case 'connection':
    case 'retry':
    case 'interaction_query':
      return runPayloadEvents(record, payload, loc);
    case 'user':
      resetAssistantTurn(state.text);
      return [userEvent(asString(payload.prompt) ?? messageText(payload.message) ?? '', loc, sessionId)];
    case 'result':
      return resultEvents(record, payload, state, loc);
  }
  return [unknownEvent(record, typeNameOf(record.type), loc, sessionId)];
}

/** A record about the run: the payload's fields are the CLI record's, under the envelope's `type` and `subtype`. */
function runPayloadEvents(
  record: JsonObject,
  payload: JsonObject,
  loc: SourceLocation,
): readonly CanonicalEvent[] {
  const sessionId = sessionIdOf(record, payload);
  const event = runRecordEvent({ ...payload, type: record.type, subtype: record.subtype }, loc);
  if (event === undefined) return [unknownEvent(record, typeNameOf(record.type), loc, sessionId)];
  if (sessionId !== undefined) event.sessionId ??= sessionId;
  return [event];
}

/** How the JSON text of an object starts: JSON whitespace, then a brace. */
const OPENS_OBJECT = /^[ \t\r\n]*\{/;

/** A stored client record's `raw`, when it is the JSON text of an object: the text and the object. */
function parsableRaw(record: JsonObject): { text: string; value: JsonObject } | undefined {
  const raw = record.raw;
  if (typeof raw !== 'string' || typeof record.chatId !== 'string') return undefined;
  // Most `raw` fields that are not records are empty or a line of output: a failed parse throws, which costs far
  // more than this look at the first character.
  if (!OPENS_OBJECT.test(raw)) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return isJsonObject(value) ? { text: raw, value } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a record (or a stored record's `raw`) is the app's own `raw` or `error` message, not a line of the agent's. */
function isAppMessage(value: JsonObject): boolean {
  return (
    (value.type === 'raw' && typeof value.data === 'string') ||
    (value.type === 'error' && typeof value.message === 'string')
  );
}

/** Whether a stored record's `raw` is the client's own prompt record (`{type: "user", prompt}`), read from its payload. */
function isClientPrompt(value: JsonObject): boolean {
  return value.type === 'user' && typeof value.prompt === 'string';
}

/**
 * The app's closing message: the end of the run when the agent wrote no `result` (it crashed, or was killed), else
 * only how its process ended (see `run-exit.ts`).
 */
function runClosingEvents(
  record: JsonObject,
  state: CliStreamState,
  loc: SourceLocation,
): readonly CanonicalEvent[] {
  resetAssistantTurn(state.text);
  const exitCode = exitCodeOf(record);
  const isError = exitCode !== 0;
  const finish: FinishEvent = {
    type: 'finish',
    finishReason: isError ? 'error' : 'stop',
    isError,
    pendingToolCallIds: [],
    loc,
  };
  if (exitCode !== undefined) finish.exitCode = exitCode;
  return [markRunExit(finish, runExitSentence(exitCode ?? null))];
}

function normalizePayloadEnvelope(
  record: JsonObject,
  context: DialectContext<CliStreamState>,
): readonly CanonicalEvent[] {
  const { loc } = context;
  if (isRunClosingRecord(record)) return runClosingEvents(record, context.state, loc);
  if (record.type === 'raw' && typeof record.data === 'string') return context.reparse(record.data);
  if (record.type !== 'assistant' && record.type !== 'thinking') endAssistantDeltaRun(context.state.text);
  if (record.type === 'error' && typeof record.message === 'string') {
    return [located({ type: 'error', message: record.message }, loc, record.session_id)];
  }
  const raw = parsableRaw(record);
  if (raw !== undefined && !isClientPrompt(raw.value)) {
    // The app's `raw` and `error` messages, stored, read as they do on the wire; an agent's line, as that line.
    const events = isAppMessage(raw.value)
      ? normalizePayloadEnvelope(raw.value, context)
      : context.reparse(raw.text);
    for (const event of events) event.sessionId ??= record.chatId as string;
    return events;
  }
  const payload = asObject(record.payload) ?? {};
  return payloadEvents(record, payload, context.state, loc);
}

/** The payload envelope of the WebSocket app, its `raw`/`error` wrapper events and the client's stored records. */
export const payloadEnvelopeDialect: Dialect<CliStreamState, 'payload-envelope'> = {
  name: 'payload-envelope',
  description:
    'A WebSocket app that wraps each event as {type, subtype, payload}, plus its raw/error events and stored client records.',
  detect: detectPayloadEnvelope,
  validate: schemaValidator('payload-envelope'),
  createState: createCliStreamState,
  stateKey: CLI_STREAM_STATE,
  normalize: normalizePayloadEnvelope,
  callsEndWithSession: true,
  skipPrefixes: reasoningSkipPrefixes(ENVELOPE_THINKING_PREFIXES),
  encode: encodePayloadEnvelope,
};
