/** Helpers the built-in encoders share: canonical fields back to the CLI's snake_case record fields. */

import type { JsonObject } from '../dialect.ts';
import type { CanonicalEvent, FinishEvent, StreamStartEvent, ToolResultEvent } from '../events.ts';

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
      usage: event.usage,
      session_id: event.sessionId,
    },
  );
}

/** The CLI's message shape for a text. */
export function textMessage(role: 'user' | 'assistant', text: string): JsonObject {
  return { role, content: [{ type: 'text', text }] };
}

/** A result arm holding the output: `{ [status]: output }`. */
export function resultArmOf(event: ToolResultEvent): JsonObject {
  return { [event.status]: event.output };
}

/**
 * Pairs each `error` event with the failed `finish` right after it, for dialects that carry a result's error text
 * inside the `result` record. Returns the message for a finish, and whether an event is such an absorbed error.
 */
export function errorMessagesOfFinishes(events: readonly CanonicalEvent[]): Map<number, string> {
  const messages = new Map<number, string>();
  for (let index = 1; index < events.length; index++) {
    const previous = events[index - 1];
    const event = events[index];
    if (event?.type === 'finish' && event.isError && previous?.type === 'error')
      messages.set(index, previous.message);
  }
  return messages;
}
