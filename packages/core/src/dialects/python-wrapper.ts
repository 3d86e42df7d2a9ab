/**
 * The Python wrapper's dialect (the `cursor_agent_api` data-structures reference): `tool-call-started` /
 * `tool-call-completed` with `tool_name`, `tool_call_id`, `parameters` and `result{success, output, exit_code}`,
 * assistant deltas with a top-level `text`, `result` errors with `error`; and logs of its serialized `AgentEvent`
 * records (`{type: "system:init", raw_type, subtype, data, text, session_id, timestamp_ms}`).
 */

import type {
  Detection,
  Dialect,
  DialectContext,
  JsonObject,
  SchemaIssue,
  ValidateOptions,
} from '../dialect.ts';
import type { CanonicalEvent, SourceLocation, ToolResultStatus } from '../events/index.ts';
import { asNumber, asString, isJsonObject } from '../json-values.ts';
import { malformedRecord } from '../malformed-record.ts';
import { rememberCall } from '../open-calls.ts';
import { typeNameOf, unknownEvent } from '../unknown-event.ts';
import { type AssistantTextState, endAssistantDeltaRun, resetAssistantTurn } from './assistant-text.ts';
import {
  assistantFormOf,
  assistantTextEvents,
  CLI_STREAM_STATE,
  type CliStreamState,
  createCliStreamState,
  initEvent,
  located,
  messageText,
  NO_EVENTS,
  resultEvents,
  runRecordEvents,
  startCliSession,
  thinkingEvents,
  userEvent,
} from './cli-records.ts';
import { isCliRecord } from './official.ts';
import { durationOfCall, type StartedCalls } from './official-tool-call.ts';
import { encodePythonWrapper } from './python-wrapper-encoder.ts';
import { CLI_THINKING_PREFIXES, reasoningSkipPrefixes } from './reasoning-skip-filter.ts';
import { schemaValidator } from './schema-validation.ts';
import { toolCallEvent, toolResultEvent } from './tool-events.ts';
import { toolNameOfLabel } from './tool-names.ts';

const TOOL_CALL_STARTED = 'tool-call-started';
const TOOL_CALL_COMPLETED = 'tool-call-completed';

function detectPythonWrapper(record: JsonObject): Detection {
  if (typeof record.raw_type === 'string') return 'distinctive';
  if (isJsonObject(record.payload)) return 'foreign';
  switch (record.type) {
    case 'system':
    case 'user':
    case 'thinking':
      return 'shared';
    case 'assistant':
      if (isJsonObject(record.message)) return 'shared';
      return typeof record.text === 'string' ? 'distinctive' : 'foreign';
    case TOOL_CALL_STARTED:
    case TOOL_CALL_COMPLETED:
      return 'distinctive';
    case 'result':
      return typeof record.error === 'string' ? 'distinctive' : 'shared';
    default:
      return 'foreign';
  }
}

/**
 * Status from the wrapper's `success` flag, else its `exit_code`, else an `error`: the format has no result arms, so
 * a completion is a `success` or a `failure`, and one with no sign of failure is a success.
 */
function wrapperStatus(result: unknown): ToolResultStatus {
  if (!isJsonObject(result)) return 'success';
  if (typeof result.success === 'boolean') return result.success ? 'success' : 'failure';
  const exitCode = asNumber(result.exit_code);
  if (exitCode !== undefined) return exitCode === 0 ? 'success' : 'failure';
  return result.error === undefined ? 'success' : 'failure';
}

/**
 * The result without its `success` flag, which became the status: like the official dialect's arm payload, whose
 * arm name becomes the status.
 */
function wrapperOutput(result: unknown): unknown {
  if (!isJsonObject(result) || typeof result.success !== 'boolean') return result ?? null;
  const { success: _status, ...output } = result;
  return output;
}

function toolEvents(record: JsonObject, calls: StartedCalls, loc: SourceLocation): readonly CanonicalEvent[] {
  const id = asString(record.tool_call_id);
  const sessionId = asString(record.session_id);
  if (id === undefined)
    return [malformedRecord(`${typeNameOf(record.type)} without a string tool_call_id`, record, loc)];
  const label = asString(record.tool_name);
  const start = calls.get(id);
  const providerToolName = label ?? start?.providerToolName ?? 'unknown';
  const toolName = label === undefined ? (start?.toolName ?? 'unknown') : toolNameOfLabel(label);
  if (record.type === TOOL_CALL_STARTED) {
    rememberCall(calls, id, {
      toolName,
      providerToolName,
      startedAtMs: undefined,
      timestampMs: asNumber(record.timestamp_ms),
    });
    const event = toolCallEvent(
      id,
      toolName,
      providerToolName,
      record.parameters ?? null,
      record.model_call_id,
    );
    return [located(event, loc, sessionId)];
  }
  calls.delete(id);
  const event = toolResultEvent({
    toolCallId: id,
    toolName,
    providerToolName,
    status: wrapperStatus(record.result),
    output: wrapperOutput(record.result),
    durationMs: durationOfCall(record, undefined, start),
  });
  if (start === undefined && record.parameters !== undefined) event.input = record.parameters;
  return [located(event, loc, sessionId)];
}

function assistantEvents(record: JsonObject, state: AssistantTextState, loc: SourceLocation) {
  const fromMessage = messageText(record.message);
  if (fromMessage !== undefined) {
    return assistantTextEvents(
      state,
      fromMessage,
      assistantFormOf(record),
      record.model_call_id,
      loc,
      record.session_id,
    );
  }
  if (typeof record.text !== 'string') return NO_EVENTS;
  const form = typeof record.timestamp_ms === 'number' ? 'delta' : 'final';
  return assistantTextEvents(state, record.text, form, record.model_call_id, loc, record.session_id);
}

/** Normalizes a record in the wrapper's own shapes (not an `AgentEvent`); `undefined` for a type it does not know. */
function normalizeWrapperShape(
  record: JsonObject,
  state: CliStreamState,
  loc: SourceLocation,
): readonly CanonicalEvent[] | undefined {
  switch (record.type) {
    case 'thinking':
      return thinkingEvents(record, record.text, loc, record.session_id);
    case 'assistant':
      return assistantEvents(record, state.text, loc);
    case TOOL_CALL_STARTED:
    case TOOL_CALL_COMPLETED:
      return toolEvents(record, state.calls, loc);
    case 'system':
      if (record.subtype !== 'init') return runRecordEvents(record, loc);
      startCliSession(state);
      return [initEvent(record, loc, record.session_id)];
    case 'user':
      resetAssistantTurn(state.text);
      return [userEvent(messageText(record.message) ?? asString(record.text) ?? '', loc, record.session_id)];
    case 'result':
      return resultEvents(record, state.text, loc);
    default:
      return undefined;
  }
}

/** The CLI record an `AgentEvent` carries in `data`, or one rebuilt from its own fields when `data` is missing. */
function agentEventRecord(record: JsonObject): JsonObject {
  const data = record.data;
  if (isJsonObject(data) && typeof data.type === 'string') return data;
  // A line without a `type` keeps what it holds, under the type the wrapper gave it.
  const rebuilt: JsonObject = isJsonObject(data)
    ? { ...data, type: record.raw_type }
    : { type: record.raw_type };
  for (const key of ['subtype', 'text', 'session_id', 'timestamp_ms']) {
    if (record[key] !== undefined && record[key] !== null) rebuilt[key] = record[key];
  }
  // The wrapper fills a result event's `text` from its `result`, so without the data the text is the result.
  if (record.raw_type === 'result' && typeof record.text === 'string') rebuilt.result = record.text;
  return rebuilt;
}

function normalizeAgentEvent(
  record: JsonObject,
  context: DialectContext<CliStreamState>,
): readonly CanonicalEvent[] {
  const inner = agentEventRecord(record);
  // A record the wrapper passed through without knowing it (a CLI `tool_call`) may be another dialect's.
  const events =
    normalizeWrapperShape(inner, context.state, context.loc) ?? context.reparse(JSON.stringify(inner));
  const sessionId = asString(record.session_id);
  if (sessionId !== undefined) {
    for (const event of events) event.sessionId ??= sessionId;
  }
  return events;
}

function normalizePythonWrapper(
  record: JsonObject,
  context: DialectContext<CliStreamState>,
): readonly CanonicalEvent[] {
  const rawType = typeof record.raw_type === 'string' ? record.raw_type : record.type;
  if (rawType !== 'assistant' && rawType !== 'thinking') endAssistantDeltaRun(context.state.text);
  if (typeof record.raw_type === 'string') return normalizeAgentEvent(record, context);
  const events = normalizeWrapperShape(record, context.state, context.loc);
  if (events !== undefined) return events;
  return [unknownEvent(record, typeNameOf(record.type), context.loc, asString(record.session_id))];
}

const validateWrapperRecord = schemaValidator('python-wrapper');
const validateOfficialRecord = schemaValidator('official');

/**
 * A record against the wrapper's schema; an `AgentEvent`'s `data` against the schema of the record it holds (a CLI
 * record against the official one, so that it gets the issues it would get unwrapped), pointers under `/data`.
 */
function validatePythonWrapper(record: JsonObject, options?: ValidateOptions): readonly SchemaIssue[] {
  const issues = validateWrapperRecord(record, options);
  const data = record.data;
  // A line without a `type` the wrapper names `unknown` (`data.get("type", "unknown")`): no record's schema applies.
  if (typeof record.raw_type !== 'string' || !isJsonObject(data) || typeof data.type !== 'string')
    return issues;
  const validateData = isCliRecord(data) ? validateOfficialRecord : validateWrapperRecord;
  const dataIssues = validateData(data, options).map((issue) => ({
    ...issue,
    pointer: `/data${issue.pointer}`,
  }));
  return dataIssues.length === 0 ? issues : [...issues, ...dataIssues];
}

/** The Python wrapper's dialect, including logs of its serialized `AgentEvent` records. */
export const pythonWrapperDialect: Dialect<CliStreamState, 'python-wrapper'> = {
  name: 'python-wrapper',
  description:
    "The Python cursor_agent_api wrapper's events (tool-call-started/-completed, top-level assistant deltas) and its serialized AgentEvent records.",
  detect: detectPythonWrapper,
  validate: validatePythonWrapper,
  createState: createCliStreamState,
  stateKey: CLI_STREAM_STATE,
  normalize: normalizePythonWrapper,
  callsEndWithSession: true,
  skipPrefixes: reasoningSkipPrefixes(CLI_THINKING_PREFIXES),
  encode: encodePythonWrapper,
};
