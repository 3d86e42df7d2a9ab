/** Helpers the built-in encoders share: canonical fields back to the CLI's snake_case record fields. */

import type { JsonObject } from '../dialect.ts';
import type {
  CanonicalEvent,
  FinishEvent,
  ReasoningDeltaEvent,
  ReasoningEndEvent,
  StreamStartEvent,
  ToolCallEvent,
  ToolResultEvent,
  UnknownEvent,
  Usage,
  UserMessageEvent,
} from '../events/index.ts';

/** Copies the defined entries of `fields` into `record` (JSON has no `undefined`). */
export function withDefined(record: JsonObject, fields: JsonObject): JsonObject {
  for (const key in fields) {
    if (fields[key] !== undefined) record[key] = fields[key];
  }
  return record;
}

/** The `system/init` fields of a `stream-start`, as the CLI names them. */
export function initFields(event: StreamStartEvent, cwdKey: 'cwd' | 'workspace'): JsonObject {
  return withDefined(
    {},
    {
      session_id: event.sessionId,
      model: event.model,
      [cwdKey]: event.cwd,
      apiKeySource: event.apiKeySource,
      permissionMode: event.permissionMode,
      request_id: event.requestId,
    },
  );
}

/** A usage's counts alone: what it holds of counts it could not read is no field a writer of the CLI's records has. */
function countsOf(usage: Usage | undefined): Usage | undefined {
  if (usage?.unreadable === undefined) return usage;
  const { unreadable: _unreadable, ...counts } = usage;
  return counts;
}

/** The `result` fields of a `finish`, as the CLI names them. */
export function resultFields(event: FinishEvent): JsonObject {
  return withDefined(
    {},
    {
      is_error: event.isError,
      result: event.text,
      duration_ms: event.durationMs,
      duration_api_ms: event.durationApiMs,
      request_id: event.requestId,
      usage: countsOf(event.usage),
      session_id: event.sessionId,
    },
  );
}

/** The CLI's message shape for a text. */
export function textMessage(role: 'user' | 'assistant', text: string): JsonObject {
  return { role, content: [{ type: 'text', text }] };
}

/** The `<kind>ToolCall` key a tool call's arguments and result sit under: the provider's own key when it has one. */
export function toolKindOf(event: ToolCallEvent | ToolResultEvent): string {
  return event.providerToolName.endsWith('ToolCall') ? event.providerToolName : `${event.toolName}ToolCall`;
}

/**
 * The `startedAtMs` / `completedAtMs` pair a completed call's duration reads back from (string millisecond times, as
 * the CLI writes them); none when the duration is unknown.
 */
export function callTimesOf(event: ToolResultEvent): JsonObject {
  return event.durationMs === undefined ? {} : { startedAtMs: '0', completedAtMs: String(event.durationMs) };
}

/** The record an `unknown` event was read from, written back as it came; none when it was not an object. */
export function rawRecordOf(event: UnknownEvent): JsonObject | undefined {
  return typeof event.raw === 'object' && event.raw !== null ? (event.raw as JsonObject) : undefined;
}

/** A result arm holding the output: `{ [status]: output }`. */
export function resultArmOf(event: ToolResultEvent): JsonObject {
  return { [event.status]: event.output };
}

/**
 * Pairs the `error` events of a session with its failed `finish`, for dialects that carry a result's error text inside
 * the `result` record: the messages of each such finish, by its index. Errors before a successful finish, or of a
 * session that never finished, have no record in those dialects.
 */
function errorMessagesOfFinishes(events: readonly CanonicalEvent[]): Map<number, string[]> {
  const messages = new Map<number, string[]>();
  let pending: string[] = [];
  events.forEach((event, index) => {
    if (event.type === 'error') pending.push(event.message);
    else if (event.type === 'stream-start') pending = [];
    else if (event.type === 'finish') {
      if (event.isError && pending.length > 0) messages.set(index, pending);
      pending = [];
    }
  });
  return messages;
}

/**
 * Writes events as records of a dialect that carries a failed result's error text inside its `result` record:
 * `encodeEvent` gets, for a failed `finish`, the messages of the session's `error` events before it, and returns
 * `undefined` for an event the dialect has no record for.
 */
export function encodeEventsWithResultErrors(
  events: readonly CanonicalEvent[],
  encodeEvent: (event: CanonicalEvent, resultErrors: readonly string[] | undefined) => JsonObject | undefined,
): JsonObject[] {
  const messages = errorMessagesOfFinishes(events);
  const records: JsonObject[] = [];
  events.forEach((event, index) => {
    const record = encodeEvent(event, messages.get(index));
    if (record !== undefined) records.push(record);
  });
  return records;
}

/**
 * The records every CLI-shaped dialect writes alike: `system/init` (its working directory under `workspaceKey`), the
 * echoed prompt, and thinking.
 */
export function sharedRecordOf(
  event: StreamStartEvent | UserMessageEvent | ReasoningDeltaEvent | ReasoningEndEvent,
  workspaceKey: 'cwd' | 'workspace',
): JsonObject {
  const session = { session_id: event.sessionId };
  switch (event.type) {
    case 'stream-start':
      return { type: 'system', subtype: 'init', ...initFields(event, workspaceKey) };
    case 'user-message':
      return withDefined({ type: 'user', message: textMessage('user', event.text) }, session);
    case 'reasoning-delta':
      return withDefined({ type: 'thinking', subtype: 'delta', text: event.text }, session);
    case 'reasoning-end':
      return withDefined({ type: 'thinking', subtype: 'completed' }, session);
  }
}
