/**
 * Event ids: the byte offset in the run's log of the record an event came from (`1234`), with a suffix for the later
 * events of the same record (`1234:1`, `1234:2`). An event no record produced takes the id of the event before it
 * with the next suffix. Ids are unique and increase along a run's events, so "after this id" is a position that
 * survives a restart: it is computed again from the log.
 */

import type { CanonicalEvent } from '@cursor-stream/core/normalize';

/** A parsed event id. */
export interface EventId {
  /** Byte offset of the record in the run's log. */
  offset: number;
  /** 0 for the first event of the record, then 1, 2, ... */
  index: number;
}

const ID_PATTERN = /^(0|[1-9][0-9]{0,15})(?::([1-9][0-9]{0,8}))?$/;

/** The text form of an id: `offset`, or `offset:index` for later events of a record. */
export function formatEventId(id: EventId): string {
  return id.index === 0 ? String(id.offset) : `${id.offset}:${id.index}`;
}

/** Parses an id (`1234` or `1234:2`); `undefined` when the text is not one. */
export function parseEventId(text: string): EventId | undefined {
  const match = ID_PATTERN.exec(text.trim());
  if (match === null) return undefined;
  const offset = Number(match[1]);
  if (!Number.isSafeInteger(offset)) return undefined;
  return { offset, index: match[2] === undefined ? 0 : Number(match[2]) };
}

/** Negative, zero or positive as `a` is before, at or after `b`. */
export function compareEventIds(a: EventId, b: EventId): number {
  return a.offset === b.offset ? a.index - b.index : a.offset - b.offset;
}

/** Assigns ids to a run's events in order; see the module comment. */
export function createEventIdAssigner(): (event: CanonicalEvent) => EventId {
  let previous: EventId | undefined;
  return (event) => {
    const offset = event.loc?.offset;
    let id: EventId;
    if (offset !== undefined && (previous === undefined || offset > previous.offset)) {
      id = { offset, index: 0 };
    } else if (previous === undefined) {
      id = { offset: offset ?? 0, index: 0 };
    } else {
      // A later event of the same record, or a synthesized one: never an id at or before the previous one.
      id = { offset: previous.offset, index: previous.index + 1 };
    }
    previous = id;
    return id;
  };
}
