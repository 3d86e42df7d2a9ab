/**
 * Reads many logs one after the other and adds up what each came to, so that every command that takes files and
 * directories counts unreadable arguments, invalid lines and input problems alike.
 */

import type { LogError, LogResult } from './log-error.ts';
import type { LogEntry } from './walk-logs.ts';

/** What reading one log came to, as {@link readEachLog} adds it up. */
export interface LogReadFacts {
  readonly invalidLines: number;
  readonly inputProblems: readonly LogError[];
}

/** What reading the logs came to, over all of them. */
export interface LogsReadOutcome {
  /** Logs read to the end. */
  files: number;
  /** Invalid lines across the logs. */
  invalidLines: number;
  /** Logs with at least one invalid line, and the first of them, so that a message can say where they are. */
  logsWithInvalidLines: number;
  firstLogWithInvalidLines: string | null;
  /** Arguments that could not be read, in order (one per log at most, so bounded by the logs named). */
  errors: LogError[];
  /** Logs read, but not cleanly: another agent's log, gzip data that goes wrong after its readable part. */
  inputProblems: LogError[];
}

function createLogsReadOutcome(): LogsReadOutcome {
  return {
    files: 0,
    invalidLines: 0,
    logsWithInvalidLines: 0,
    firstLogWithInvalidLines: null,
    errors: [],
    inputProblems: [],
  };
}

/** Adds what reading the log at `path` came to. */
function addLogResult(outcome: LogsReadOutcome, path: string, result: LogResult<LogReadFacts>): void {
  if (!result.ok) {
    outcome.errors.push(result.error);
    return;
  }
  outcome.files += 1;
  outcome.inputProblems.push(...result.value.inputProblems);
  if (result.value.invalidLines === 0) return;
  outcome.invalidLines += result.value.invalidLines;
  outcome.logsWithInvalidLines += 1;
  outcome.firstLogWithInvalidLines ??= path;
}

/**
 * Reads each log of `entries` (as `expandLogPaths` gives them) with `read`, one after the other, in order: an entry
 * that names no log is one of the outcome's `errors`, and the others are read. `read` is told whether the path was a
 * regular file when listed, for `readLog`'s option of that name.
 */
export async function readEachLog(
  entries: readonly LogEntry[],
  read: (path: string, regularFile: boolean) => Promise<LogResult<LogReadFacts>>,
): Promise<LogsReadOutcome> {
  const outcome = createLogsReadOutcome();
  for (const entry of entries) {
    if ('error' in entry) outcome.errors.push(entry.error);
    else addLogResult(outcome, entry.path, await read(entry.path, entry.regularFile));
  }
  return outcome;
}
