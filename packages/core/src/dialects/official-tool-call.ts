/**
 * The official `tool_call` envelope: `tool_call: { "<kind>ToolCall": { args, result? }, ...siblings }`, plus the
 * protobuf oneof form `{ tool: { case, value } }` and the docs' `function: { name, arguments }`. The payload
 * envelope wraps the same kinds, so it reads them here too.
 */

import type { JsonObject } from '../dialect.ts';
import type { ToolName, ToolResultEvent, ToolResultStatus } from '../events/index.ts';
import { asNumber, asNumberLike, asObject, asString, isJsonObject } from '../json-values.ts';
import { rememberCall } from '../open-calls.ts';
import { toolResultEvent } from './tool-events.ts';
import { isToolKind, toolNameOfKind, toolNameOfLabel } from './tool-names.ts';

/** The tool a `tool_call` names, and the object holding its `args` and `result`. */
export interface ToolKind {
  toolName: ToolName;
  /** The kind (or name) as sent. */
  providerToolName: string;
  /** The kind's value: `{ args, result? }`, or the tool's fields themselves (the envelope's `writeFileToolCall`). */
  body: JsonObject;
}

/**
 * Finds the tool kind of a `tool_call` object: the key ending in `ToolCall`, wherever it stands among its siblings
 * (`toolCallId`, `startedAtMs`, `completedAtMs`, `hookAdditionalContexts`, `description`).
 */
export function findToolKind(toolCall: JsonObject): ToolKind | undefined {
  for (const key in toolCall) {
    const body = toolCall[key];
    if (isToolKind(key) && isJsonObject(body))
      return { toolName: toolNameOfKind(key), providerToolName: key, body };
  }
  const oneof = asObject(toolCall.tool);
  if (oneof !== undefined && typeof oneof.case === 'string') {
    return {
      toolName: toolNameOfKind(oneof.case),
      providerToolName: oneof.case,
      body: asObject(oneof.value) ?? {},
    };
  }
  const fn = asObject(toolCall.function);
  if (fn !== undefined && typeof fn.name === 'string') {
    return {
      toolName: toolNameOfLabel(fn.name),
      providerToolName: fn.name,
      body: { args: parsedArguments(fn.arguments) },
    };
  }
  return undefined;
}

/** OpenAI-style `arguments` are JSON text; an object reads better as input than the text that encodes it. */
function parsedArguments(value: unknown): unknown {
  if (typeof value !== 'string' || !value.startsWith('{')) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Result arms in the order they are looked for; any other object-valued key counts as an arm too. */
const KNOWN_ARMS = ['success', 'failure', 'error', 'rejected', 'timeout', 'spawnError', 'aborted'] as const;

/** How a tool call ended, read from its `result` oneof. */
export interface ResultArm {
  status: ToolResultStatus;
  output: unknown;
}

/**
 * Reads the arm of a `result` by name, not by position, skipping non-arm siblings such as `isBackground`. A result
 * with no arm ends as status `unknown`.
 */
export function resultArm(result: unknown): ResultArm {
  if (!isJsonObject(result)) return { status: 'unknown', output: result ?? null };
  for (const arm of KNOWN_ARMS) {
    if (Object.hasOwn(result, arm)) return { status: arm, output: result[arm] };
  }
  for (const key in result) {
    const value = result[key];
    if (isJsonObject(value)) return { status: key, output: value };
  }
  return { status: 'unknown', output: result };
}

/** What the start of a call left for its completion: its name (an orphan completion may carry none) and times. */
export interface StartedCall {
  toolName: ToolName;
  providerToolName: string;
  startedAtMs: number | undefined;
  timestampMs: number | undefined;
  /**
   * Set when the call is known only from an `interaction_query` request naming it, no `started` record: the CLI of
   * 2026.09.10 asks about a web search so and then writes its completion alone. Its completion opens it.
   */
  announced?: true;
  /** An announced call's arguments, as the request gives them (`query.<kind>.args`), for a completion without them. */
  announcedArgs?: unknown;
}

/**
 * Remembers a call an `interaction_query` request names (`toolCallId`), unless its start is known: a completion with no
 * `started` record is then the call's start and end, not a result without its call.
 */
export function announceCall(calls: StartedCalls, id: string, record: JsonObject): void {
  if (calls.has(id)) return;
  const call: StartedCall = {
    toolName: 'unknown',
    providerToolName: 'unknown',
    startedAtMs: undefined,
    timestampMs: asNumber(record.timestamp_ms),
    announced: true,
  };
  const query = asObject(record.query);
  for (const key in query) {
    const args = asObject(query[key])?.args;
    if (args !== undefined) {
      call.announcedArgs = args;
      break;
    }
  }
  rememberCall(calls, id, call);
}

/** Per-stream record of started calls, by exact id (ids may hold a newline: never trimmed). */
export type StartedCalls = Map<string, StartedCall>;

/** What a call's start leaves for its completion: its names, and its times for {@link durationOfCall}. */
export function startedCall(
  toolName: ToolName,
  providerToolName: string,
  record: JsonObject,
  toolCall: JsonObject | undefined,
): StartedCall {
  return {
    toolName,
    providerToolName,
    startedAtMs: asNumberLike(toolCall?.startedAtMs),
    timestampMs: asNumber(record.timestamp_ms),
  };
}

/**
 * A completed call's duration, from the first source that gives one:
 * 1. `completedAtMs − startedAtMs` of the `tool_call` (the CLI from 2026.08; `startedAtMs` from the start if the
 *    completion lacks it);
 * 2. the record's `duration_ms` (the Python wrapper);
 * 3. the completion's `timestamp_ms` minus the start's.
 *
 * A negative difference is no duration: `timestamp_ms` is not monotonic in real captures.
 */
export function durationOfCall(
  record: JsonObject,
  toolCall: JsonObject | undefined,
  start: StartedCall | undefined,
): number | undefined {
  const completedAt = asNumberLike(toolCall?.completedAtMs);
  const startedAt = asNumberLike(toolCall?.startedAtMs) ?? start?.startedAtMs;
  if (completedAt !== undefined && startedAt !== undefined && completedAt >= startedAt)
    return completedAt - startedAt;
  const duration = asNumber(record.duration_ms);
  if (duration !== undefined && duration >= 0) return duration;
  const completedStamp = asNumber(record.timestamp_ms);
  const startedStamp = start?.timestampMs;
  if (completedStamp !== undefined && startedStamp !== undefined && completedStamp >= startedStamp) {
    return completedStamp - startedStamp;
  }
  return undefined;
}

/** The call id: `call_id`, else the `toolCallId` the `tool_call` or its `args` repeat. */
export function toolCallIdOf(
  record: JsonObject,
  toolCall: JsonObject | undefined,
  kind: ToolKind | undefined,
) {
  return (
    asString(record.call_id) ??
    asString(toolCall?.toolCallId) ??
    asString(asObject(kind?.body.args)?.toolCallId)
  );
}

/**
 * The `tool-result` of a completion, which ends its call: named by the completion's kind, else by its start, else
 * `unknown` (an orphan completion with no kind). An orphan keeps the arguments its completion repeats as `input`.
 *
 * @param duration - The call's duration, given its start if one was seen.
 */
export function completedCallEvent(
  id: string,
  kind: ToolKind | undefined,
  calls: StartedCalls,
  result: ResultArm,
  duration: (start: StartedCall | undefined) => number | undefined,
): ToolResultEvent {
  const start = calls.get(id);
  calls.delete(id);
  const event = toolResultEvent({
    toolCallId: id,
    toolName: kind?.toolName ?? start?.toolName ?? 'unknown',
    providerToolName: kind?.providerToolName ?? start?.providerToolName ?? 'unknown',
    status: result.status,
    output: result.output,
    durationMs: duration(start),
  });
  const args = kind?.body.args;
  if (start === undefined && args !== undefined) event.input = args;
  return event;
}
