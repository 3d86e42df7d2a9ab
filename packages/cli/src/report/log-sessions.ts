/**
 * Reads logs (files, or directories walked for logs) session by session: each canonical event comes with the times
 * its record carries, and a session is handed on as it ends, so that memory holds one session at a time whatever the
 * number of logs or sessions.
 */

import {
  type CanonicalEvent,
  createRecordTimeIndex,
  isSessionContent,
  type RecordTimes,
} from '@cursor-stream/core/normalize';
import type { SessionFacts } from '@cursor-stream/core/sessions';
import { type CliError, displayPath, type Result } from '../cli-error.ts';
import { expandLogPaths } from '../input/walk-logs.ts';
import type { InputOptions } from '../options.ts';
import type { Progress } from '../progress-bar.ts';
import { readLog } from '../read-log.ts';

/** Receives the sessions of the logs, one at a time, in input order. */
export interface SessionVisitor {
  /** A session begins in `file` (`<stdin>` for standard input). */
  start(file: string): void;
  /** The next event of the open session, with the times of the record that produced it. */
  event(event: CanonicalEvent, times: RecordTimes | undefined): void;
  /** The open session ended (its `finish`, always the last event of a session). */
  end(): void | Promise<void>;
  /**
   * A whole session, its facts made elsewhere (a worker thread reading a range of a large log), instead of its
   * events. A visitor that takes them lets {@link LogSessionsOptions.inRanges} read its logs.
   */
  whole?(facts: SessionFacts): Promise<void>;
}

/** What reading a log in ranges came to, besides its sessions. */
export interface RangeSessionsOutcome {
  readonly invalidLines: number;
  readonly eventsOutsideSessions: number;
  readonly inputProblems: readonly CliError[];
}

/** How to read the logs. */
export interface LogSessionsOptions extends InputOptions {
  /** Standard input, read for the path `-`. */
  readonly stdin: AsyncIterable<Uint8Array | string> & { readonly isTTY?: boolean | undefined };
  /** Makes the progress display for one log. */
  readonly progress?: (size: number | undefined, label: string) => Progress;
  /**
   * Reads a log in ranges on worker threads, handing each whole session on in order; `null` when the log is read here
   * instead (see `readSplit`).
   */
  readonly inRanges?: (
    path: string,
    whole: (facts: SessionFacts) => Promise<void>,
  ) => Promise<Result<RangeSessionsOutcome> | null>;
}

/** What reading the logs came to, besides the sessions. */
export interface LogSessionsOutcome {
  /** Logs read to the end. */
  files: number;
  /** Invalid lines across the logs. */
  invalidLines: number;
  /** Events outside any session: invalid lines or unknown records before a session or after its result. */
  eventsOutsideSessions: number;
  /** Arguments that could not be read, in order (one per argument at most, so bounded by the command line). */
  errors: CliError[];
  /** Logs read, but not cleanly: a foreign agent's log, gzip data that goes wrong after its readable part. */
  inputProblems: CliError[];
}

/**
 * Cuts one log's events into sessions: opens one at the first content event, ends it at its `finish` (always the last
 * event of a session), and counts the events outside sessions. Synchronous, so that a worker thread can use it; the
 * caller ends the session when {@link push} says so.
 */
export function createSessionCutter(
  file: string,
  visitor: Pick<SessionVisitor, 'start' | 'event'>,
  outcome: { eventsOutsideSessions: number },
) {
  let open = false;
  return {
    /** Passes an event on; returns true when it ended the open session. */
    push(event: CanonicalEvent, times: RecordTimes | undefined): boolean {
      if (!open) {
        if (!isSessionContent(event)) {
          outcome.eventsOutsideSessions += 1;
          return false;
        }
        open = true;
        visitor.start(file);
      }
      visitor.event(event, times);
      if (event.type === 'finish') open = false;
      return event.type === 'finish';
    },
    /**
     * At the end of input: returns true when a session was still open. The normalizer ends every session with a
     * finish; this only guards a log whose reading failed midway.
     */
    close(): boolean {
      const wasOpen = open;
      open = false;
      return wasOpen;
    },
  };
}

async function readOne(
  path: string,
  options: LogSessionsOptions,
  visitor: SessionVisitor,
  outcome: LogSessionsOutcome,
): Promise<void> {
  const times = createRecordTimeIndex();
  const cutter = createSessionCutter(displayPath(path), visitor, outcome);
  const result = await readLog(path, {
    ...options,
    onRecord: (record) => times.observe(record.line, record.value),
    async onEvents(events) {
      for (const event of events) {
        if (cutter.push(event, event.loc === undefined ? undefined : times.at(event.loc.line)))
          await visitor.end();
      }
    },
  });
  if (cutter.close()) await visitor.end();
  if (!result.ok) outcome.errors.push(result.error);
  else {
    outcome.files += 1;
    outcome.invalidLines += result.value.invalidLines;
    outcome.inputProblems.push(...result.value.inputProblems);
  }
}

/** Reads a log in ranges when the options and the visitor allow it and the log is worth it; false when it is not. */
async function readInRanges(
  path: string,
  options: LogSessionsOptions,
  visitor: SessionVisitor,
  outcome: LogSessionsOutcome,
): Promise<boolean> {
  const whole = visitor.whole?.bind(visitor);
  if (options.inRanges === undefined || whole === undefined) return false;
  const result = await options.inRanges(path, whole);
  if (result === null) return false;
  if (!result.ok) outcome.errors.push(result.error);
  else {
    outcome.files += 1;
    outcome.invalidLines += result.value.invalidLines;
    outcome.eventsOutsideSessions += result.value.eventsOutsideSessions;
    outcome.inputProblems.push(...result.value.inputProblems);
  }
  return true;
}

/**
 * Reads every log named by `paths` (directories are walked for `*.ndjson`, `*.jsonl`, `*.log` and their `.gz`),
 * handing each session to `visitor`. A log that cannot be read is reported in the outcome; the others are read.
 */
export async function visitLogSessions(
  paths: readonly string[],
  options: LogSessionsOptions,
  visitor: SessionVisitor,
): Promise<LogSessionsOutcome> {
  const outcome: LogSessionsOutcome = {
    files: 0,
    invalidLines: 0,
    eventsOutsideSessions: 0,
    errors: [],
    inputProblems: [],
  };
  for (const entry of await expandLogPaths(paths)) {
    if ('error' in entry) outcome.errors.push(entry.error);
    else if (!(await readInRanges(entry.path, options, visitor, outcome)))
      await readOne(entry.path, options, visitor, outcome);
  }
  return outcome;
}
