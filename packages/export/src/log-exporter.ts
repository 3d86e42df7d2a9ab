/** The interface every export format implements: logs are opened one at a time, fed, and ended. */

import type { CanonicalEvent } from '@cursor-stream/core/normalize';

/** What an export wrote. */
export interface ExportTotals {
  logs: number;
  sessions: number;
  toolCalls: number;
  events: number;
}

/** Receives one log. */
export interface LogSink {
  /**
   * The raw record at `line` (at byte `offset`, when records may share a line) and the dialect that read it (for
   * record times); call before its events.
   */
  observeRecord(line: number, record: unknown, dialect?: string, offset?: number): void;
  /** The next batch of canonical events, in log order. */
  push(events: readonly CanonicalEvent[]): Promise<void>;
  /** The log has ended. */
  end(): Promise<void>;
}

/** An export in progress: logs one after another, then `close`. */
export interface LogExporter {
  /**
   * Starts a log. `file` names it in the output (the tables' `file`, the trace's attributes) and is what makes a
   * re-export replace the log's rows; `modifiedMs` anchors the times of a log whose records carry none.
   */
  openLog(file: string, modifiedMs?: number): Promise<LogSink>;
  /** Flushes and releases everything; the totals of the whole export. */
  close(): Promise<ExportTotals>;
}

/** Totals at zero. */
export function emptyTotals(): ExportTotals {
  return { logs: 0, sessions: 0, toolCalls: 0, events: 0 };
}

/**
 * A value of a log the export changed or left out to write the rest: a time no date can hold, a token count no sum
 * can take, a number outside its column's type, a string with a lone surrogate. The log and the others go on.
 */
export interface ExportWarning {
  /** The log, as `openLog` was given it. */
  file: string;
  /** The line of the record that holds the value; `null` when unknown. */
  line: number | null;
  /** For a person: the field or column, the value, and what was written instead (`...; left out`). */
  message: string;
}

/** Hears of each {@link ExportWarning}, as it is found. */
export type ExportWarningListener = (warning: ExportWarning) => void;

/**
 * An export failure as a value: a missing optional package or one that fails to load, credentials no request can
 * carry, an unreachable server, a database error.
 */
export interface ExportError {
  code:
    | 'missing-package'
    | 'broken-package'
    | 'invalid-credentials'
    | 'connection-failed'
    | 'server-error'
    | 'write-failed';
  message: string;
}

/** Thrown by exporters on a failure they cannot go on from; carries an {@link ExportError}. */
export class ExportFailure extends Error {
  readonly code: ExportError['code'];
  constructor(error: ExportError) {
    super(error.message);
    this.code = error.code;
  }
}
