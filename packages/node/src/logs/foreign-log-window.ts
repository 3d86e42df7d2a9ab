/**
 * How much of a log decides that it is another agent's as a whole, and so is left out whole. Their logs show it in
 * their first records (Claude Code's `system/init` names its version, Codex and Gemini CLI start with types of their
 * own), so the window is counted from the log's first record, not its first byte: a log captured with `2>&1` may
 * start with lines of a tool's own output (`npm WARN ...`), and another agent's log after them is still theirs.
 * The events of the lines before the window's end are held back until it is known, which bounds what is held: a
 * window's worth of records, and at most {@link FOREIGN_LOG_LEAD_BYTES} of lines that are no records before them.
 * A record of theirs further on is a log that mixes theirs in: it is read, and named.
 */

import type { CanonicalEvent, ForeignLog } from '@cursor-stream/core';

/** The bytes from a log's first record within which another agent's record makes the whole log theirs. */
export const FOREIGN_LOG_WINDOW_BYTES = 64 * 1024;

/**
 * The bytes of lines that are no records (a tool's output, a banner, a stack trace) a log may start with, its window
 * still counted from the first record after them. A log whose first record comes later has its window counted from
 * its first byte, which has then passed.
 */
export const FOREIGN_LOG_LEAD_BYTES = 256 * 1024;

/** Where a log's window starts, learnt from its events as they come; see the module comment. */
export interface ForeignLogWindow {
  /** Takes the next events of the log, in order. */
  observe(events: readonly CanonicalEvent[]): void;
  /** Whether every record that starts in the window has been read, once the log's first `readBytes` have. */
  passed(readBytes: number): boolean;
  /** Whether `foreign`, the first record of another agent's found, makes the log theirs from its start. */
  fromStart(foreign: ForeignLog | undefined | null): boolean;
}

/** Creates the {@link ForeignLogWindow} of one log. */
export function createForeignLogWindow(): ForeignLogWindow {
  // The offset of the first event read from a record: every event but an invalid line's is one.
  let firstRecord: number | undefined;
  return {
    observe(events) {
      if (firstRecord !== undefined) return;
      for (const event of events) {
        if (event.type === 'invalid-line' || event.loc === undefined) continue;
        firstRecord = event.loc.offset;
        return;
      }
    },
    passed(readBytes) {
      if (firstRecord === undefined) return readBytes >= FOREIGN_LOG_LEAD_BYTES;
      return readBytes >= windowStart(firstRecord) + FOREIGN_LOG_WINDOW_BYTES;
    },
    fromStart: (foreign) => isForeignFromStart(foreign, firstRecord),
  };
}

/** Where the window of a log whose first record is at `firstRecordOffset` starts. */
function windowStart(firstRecordOffset: number | undefined): number {
  return firstRecordOffset !== undefined && firstRecordOffset < FOREIGN_LOG_LEAD_BYTES
    ? firstRecordOffset
    : 0;
}

/**
 * Whether `foreign` makes a log another agent's from its start, given the offset of the log's first record
 * (`undefined`: none was read, as in a log of lines that are no records); see {@link createForeignLogWindow}.
 */
export function isForeignFromStart(
  foreign: ForeignLog | undefined | null,
  firstRecordOffset?: number,
): boolean {
  if (foreign === undefined || foreign === null) return false;
  return foreign.loc.offset < windowStart(firstRecordOffset) + FOREIGN_LOG_WINDOW_BYTES;
}
