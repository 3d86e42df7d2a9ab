/**
 * Reads logs (files, or directories walked for logs) session by session: each canonical event comes with the times
 * its record carries, and a session is handed on as it ends, so that memory holds one session at a time whatever the
 * number of logs or sessions.
 */

import {
  type CanonicalEvent,
  createRecordTimeIndex,
  eventTimes,
  isSessionContent,
  type RecordTimes,
} from '@cursor-stream/core/normalize';
import type { LogError, LogResult } from './log-error.ts';
import type { Progress } from './progress.ts';
import { type LogReadFacts, type LogsReadOutcome, readEachLog } from './read-each-log.ts';
import { type ReadingOptions, readLog, type StandardInput } from './read-log.ts';
import { expandLogPaths, logsToCount } from './walk-logs.ts';

/**
 * Receives the sessions of the logs, one at a time, in input order.
 *
 * @typeParam Whole - A session made elsewhere, handed on whole (see {@link SessionVisitor.whole}).
 */
export interface SessionVisitor<Whole = never> {
  /** A session begins in the log at `path`: the path given, a log found under a directory given, or `-`. */
  start(path: string): void;
  /** The next event of the open session, with the times of the record that produced it. */
  event(event: CanonicalEvent, times: RecordTimes | undefined): void;
  /** The open session ended (its `finish`, always the last event of a session). */
  end(): void | Promise<void>;
  /**
   * A whole session made elsewhere (such as its facts, by a worker thread reading a range of a large log), instead
   * of its events. A visitor that takes them lets {@link LogSessionsOptions.inRanges} read its logs.
   */
  whole?(session: Whole): Promise<void>;
}

/** What reading a log in ranges came to, besides its sessions. */
export interface RangeSessionsOutcome {
  readonly invalidLines: number;
  readonly eventsOutsideSessions: number;
  readonly inputProblems: readonly LogError[];
}

/** How to read the logs. */
export interface LogSessionsOptions<Whole = never> extends ReadingOptions {
  /** Standard input, read for the path `-`: `process.stdin` by default. */
  readonly stdin?: StandardInput;
  /** Makes the progress display for one log. */
  readonly progress?: (size: number | undefined, label: string) => Progress;
  /**
   * Reads a log in ranges on worker threads, handing each whole session on in order; `null` when the log is read here
   * instead (see `readInRanges` of `@cursor-stream/node/ranges`).
   */
  readonly inRanges?: (
    path: string,
    whole: (session: Whole) => Promise<void>,
  ) => Promise<LogResult<RangeSessionsOutcome> | null>;
}

/** What reading the logs came to, besides the sessions. */
export interface LogSessionsOutcome extends LogsReadOutcome {
  /** Events outside any session: invalid lines or unknown records before a session or after its result. */
  eventsOutsideSessions: number;
  /** Logs not read because another log read holds the same runs, each with why: a note, not a problem. */
  countedElsewhere: LogError[];
}

/** One log's events cut into sessions; see {@link createSessionCutter}. */
export interface SessionCutter {
  /** Passes an event on; returns true when it ended the open session. */
  push(event: CanonicalEvent, times: RecordTimes | undefined): boolean;
  /**
   * At the end of input: returns true when a session was still open. The normalizer ends every session with a
   * finish; this only guards a log whose reading failed midway.
   */
  close(): boolean;
}

/**
 * Cuts one log's events into sessions: opens one at the first content event, ends it at its `finish` (always the last
 * event of a session), and counts the events outside sessions. Synchronous, so that a worker thread can use it; the
 * caller ends the session when {@link SessionCutter.push} says so.
 */
export function createSessionCutter(
  path: string,
  visitor: Pick<SessionVisitor, 'start' | 'event'>,
  outcome: { eventsOutsideSessions: number },
): SessionCutter {
  let open = false;
  return {
    push(event: CanonicalEvent, times: RecordTimes | undefined): boolean {
      if (!open) {
        if (!isSessionContent(event)) {
          outcome.eventsOutsideSessions += 1;
          return false;
        }
        open = true;
        visitor.start(path);
      }
      visitor.event(event, times);
      if (event.type === 'finish') open = false;
      return event.type === 'finish';
    },
    close(): boolean {
      const wasOpen = open;
      open = false;
      return wasOpen;
    },
  };
}

async function readOne<Whole>(
  path: string,
  regularFile: boolean,
  options: LogSessionsOptions<Whole>,
  visitor: SessionVisitor<Whole>,
  outcome: { eventsOutsideSessions: number },
): Promise<LogResult<LogReadFacts>> {
  const times = createRecordTimeIndex();
  const cutter = createSessionCutter(path, visitor, outcome);
  // The reading options named one by one (spreads last): spreads first take V8's slow path, microseconds per log.
  const result = await readLog(path, {
    dialect: options.dialect,
    maxRecordBytes: options.maxRecordBytes,
    foreignLogs: options.foreignLogs,
    redactor: options.redactor,
    regularFile,
    onRecord: (record) => times.observe(record.line, record.value, record.offset),
    async onEvents(events) {
      for (const event of events) {
        if (cutter.push(event, eventTimes(times, event))) await visitor.end();
      }
    },
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
    ...(options.progress === undefined ? {} : { progress: options.progress }),
  });
  if (cutter.close()) await visitor.end();
  return result;
}

/** Reads a log in ranges when the options and the visitor allow it and the log is worth it; `null` when it is not. */
async function tryRanges<Whole>(
  path: string,
  options: LogSessionsOptions<Whole>,
  visitor: SessionVisitor<Whole>,
  outcome: { eventsOutsideSessions: number },
): Promise<LogResult<LogReadFacts> | null> {
  const whole = visitor.whole?.bind(visitor);
  if (options.inRanges === undefined || whole === undefined) return null;
  const result = await options.inRanges(path, whole);
  if (result?.ok === true) outcome.eventsOutsideSessions += result.value.eventsOutsideSessions;
  return result;
}

/**
 * Reads every log named by `paths` (directories are walked for `*.ndjson`, `*.jsonl`, `*.log` and their `.gz`),
 * handing each session to `visitor`. A log that cannot be read is reported in the outcome; the others are read.
 */
export async function visitLogSessions<Whole = never>(
  paths: readonly string[],
  options: LogSessionsOptions<Whole>,
  visitor: SessionVisitor<Whole>,
): Promise<LogSessionsOutcome> {
  const outside = { eventsOutsideSessions: 0 };
  // Asked only when it may say yes: a folder of small logs then pays no promise per log for asking.
  const mayReadInRanges = options.inRanges !== undefined && visitor.whole !== undefined;
  // Each log's size comes with its open: nothing here adds sizes up before reading.
  const { entries, leftOut: countedElsewhere } = logsToCount(
    paths,
    await expandLogPaths(paths, { sizes: false }),
  );
  const outcome = await readEachLog(
    entries,
    async (path, regularFile) =>
      (mayReadInRanges ? await tryRanges(path, options, visitor, outside) : null) ??
      (await readOne(path, regularFile, options, visitor, outside)),
  );
  return { ...outcome, ...outside, countedElsewhere };
}
