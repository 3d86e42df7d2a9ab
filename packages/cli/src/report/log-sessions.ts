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
import { type CliError, displayPath } from '../cli-error.ts';
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
}

/** How to read the logs. */
export interface LogSessionsOptions extends InputOptions {
  /** Standard input, read for the path `-`. */
  readonly stdin: AsyncIterable<Uint8Array | string> & { readonly isTTY?: boolean | undefined };
  /** Makes the progress display for one log. */
  readonly progress?: (size: number | undefined, label: string) => Progress;
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

/** Cuts one log's events into sessions for the visitor. */
function createSessionCutter(file: string, visitor: SessionVisitor, outcome: LogSessionsOutcome) {
  let open = false;
  return {
    async push(event: CanonicalEvent, times: RecordTimes | undefined): Promise<void> {
      if (!open) {
        if (!isSessionContent(event)) {
          outcome.eventsOutsideSessions += 1;
          return;
        }
        open = true;
        visitor.start(file);
      }
      visitor.event(event, times);
      if (event.type === 'finish') {
        open = false;
        await visitor.end();
      }
    },
    async end(): Promise<void> {
      // The normalizer ends every session with a finish; this only guards a log whose reading failed midway.
      if (open) await visitor.end();
      open = false;
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
        await cutter.push(event, event.loc === undefined ? undefined : times.at(event.loc.line));
      }
    },
  });
  await cutter.end();
  if (!result.ok) outcome.errors.push(result.error);
  else {
    outcome.files += 1;
    outcome.invalidLines += result.value.invalidLines;
    outcome.inputProblems.push(...result.value.inputProblems);
  }
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
    else await readOne(entry.path, options, visitor, outcome);
  }
  return outcome;
}
