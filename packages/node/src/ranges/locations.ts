/**
 * Positions of a range read on its own, moved to where they are in the file. A worker's normalizer numbers lines
 * from 1 and bytes from 0 at its range's start; every position it reports is moved by the lines and bytes before the
 * range, so that events, records and findings say exactly what one thread reading the whole file says.
 */

import type { CanonicalEvent, ForeignLog, SourceLocation } from '@cursor-stream/core/normalize';
import { type NdjsonRecord, relocatedRecord } from '@cursor-stream/ndjson';

/** What positions read from a range's start are moved by: the lines and bytes of the file before it. */
export interface Shift {
  readonly lines: number;
  readonly bytes: number;
}

/** A location moved by `shift`. */
export function shiftLocation(loc: SourceLocation, shift: Shift): SourceLocation {
  return { line: loc.line + shift.lines, offset: loc.offset + shift.bytes };
}

/**
 * The tokenizer names the line of the record that cut an open one short in its message: the one message that holds
 * a position.
 */
const CUT_BY_LINE = /^(record ends inside a string; line )(\d+)( starts a new record)$/;

/**
 * Moves an event's positions in place: its `loc`, the `loc` of a finish's failure, and the line an
 * `unterminated-string` message names. Locations are replaced, never changed: the normalizer shares one location
 * object between the events of a record.
 */
export function shiftEvent(event: CanonicalEvent, shift: Shift): void {
  if (event.loc !== undefined) event.loc = shiftLocation(event.loc, shift);
  if (event.type === 'finish' && event.failure?.loc !== undefined) {
    event.failure = { ...event.failure, loc: shiftLocation(event.failure.loc, shift) };
  } else if (event.type === 'invalid-line' && event.code === 'unterminated-string') {
    event.message = event.message.replace(
      CUT_BY_LINE,
      (_whole, before: string, line: string, after: string) =>
        `${before}${Number(line) + shift.lines}${after}`,
    );
  }
}

/** A tokenizer record with its line and offset moved; a long line's text stays undecoded until read. */
export function shiftRecord(record: NdjsonRecord, shift: Shift): NdjsonRecord {
  return relocatedRecord(record, record.line + shift.lines, record.offset + shift.bytes);
}

/** A foreign-log finding with its location moved. */
export function shiftForeign(foreign: ForeignLog, shift: Shift): ForeignLog {
  return { ...foreign, loc: shiftLocation(foreign.loc, shift) };
}
