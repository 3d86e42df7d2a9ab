import type { JsonObject } from './dialect.ts';
import type { SourceLocation, UnknownEvent } from './events/index.ts';

/**
 * An `unknown` event for a well-formed record of a type nothing models. The record is kept as it was, not cloned:
 * events are read-only by convention.
 */
export function unknownEvent(
  record: JsonObject,
  rawType: string,
  loc: SourceLocation | undefined,
  sessionId: string | undefined,
): UnknownEvent {
  const event: UnknownEvent = { type: 'unknown', rawType, raw: record };
  const subtype = record.subtype;
  if (typeof subtype === 'string') event.rawSubtype = subtype;
  if (loc !== undefined) event.loc = loc;
  if (sessionId !== undefined) event.sessionId = sessionId;
  return event;
}

/**
 * A record's `type` as text for messages and `rawType`: the string itself, else its JSON. `String()` is not safe on
 * parsed input: `{"toString": 1}` makes it throw.
 */
export function typeNameOf(type: unknown): string {
  return typeof type === 'string' ? type : (JSON.stringify(type) ?? 'undefined');
}
