/** The process streams and environment a command uses, passed in so that commands never reach for globals. */

import { availableParallelism } from 'node:os';
import { plural } from '@cursor-stream/core/text';
import type { Progress, ReadingOptions } from '@cursor-stream/node/logs';
import { type CliError, type CliErrorCode, cliError, formatCliError } from './cli-error.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE_OR_IO, type ExitCode } from './exit-codes.ts';
import { capJobs, isOptionValueError, parseByteSize } from './options.ts';
import { createProgress, NO_PROGRESS, type ProgressTarget } from './progress-bar.ts';

/** A writable stream as the commands use it. */
export interface OutputStream extends ProgressTarget {
  /** Writes text, or UTF-8 bytes already encoded (a worker thread's output); false when the buffer is full. */
  write(chunk: string | Uint8Array): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/** Where a command's text output goes; awaited, so a slow reader holds the reading back. */
export type WriteText = (text: string) => Promise<void>;

/** Standard streams and environment of one CLI run. */
export interface CliIo {
  readonly stdin: AsyncIterable<Uint8Array | string> & { readonly isTTY?: boolean | undefined };
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The real process streams. */
export function processIo(): CliIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}

/**
 * Writes text, and waits for the stream to drain when its buffer is full, so that a slow reader (a pager, a pipe)
 * holds the input back instead of the output piling up in memory.
 */
export async function writeText(stream: OutputStream, text: string | Uint8Array): Promise<void> {
  if (text.length === 0 || stream.write(text)) return;
  await new Promise<void>((resolve) => stream.once('drain', resolve));
}

/**
 * Whether standard input is named more than once among a command's logs (it can be read only once); if so, says so
 * as a usage error.
 */
export function refusesStdinTwice(paths: readonly string[], io: CliIo): boolean {
  if (paths.filter((path) => path === '-').length <= 1) return false;
  reportError(io, cliError('usage', 'standard input (-) can be read only once'));
  return true;
}

/**
 * What a command that writes each log's events as it reads them does with another agent's log: leaves it out, as
 * `summary` does, unless it is the one log and read live (standard input, or a followed file), whose output would
 * otherwise wait for the first `FOREIGN_LOG_WINDOW_BYTES` that tell whose log it is; that one is written and named.
 */
export function foreignLogsOf(path: string, several: boolean, follow = false): ReadingOptions['foreignLogs'] {
  return several || (path !== '-' && !follow) ? 'leave-out' : 'read';
}

/** Prints a usage or I/O error as its one stderr line. */
export function reportError(io: CliIo, error: CliError): void {
  io.stderr.write(`${formatCliError(error)}\n`);
}

/**
 * A progress factory for a command: a bar on stderr when it is a terminal, except when stdout is the same terminal
 * and the command writes as it reads (the output is the progress then, and a bar would tear it).
 */
export function progressFor(
  io: CliIo,
  writesWhileReading: boolean,
): (size: number | undefined, label: string) => Progress {
  const quiet = writesWhileReading && io.stdout.isTTY === true;
  return (size, label) => (quiet ? NO_PROGRESS : createProgress(io.stderr, size, label));
}

/**
 * The exit code of a command that read a log through: 1 when it had invalid lines or problems after its readable
 * part (each reported on stderr here, after the output), else 0.
 */
export function readingExitCode(
  io: CliIo,
  stats: { readonly invalidLines: number; readonly inputProblems: readonly CliError[] },
): ExitCode {
  for (const problem of stats.inputProblems) reportError(io, problem);
  return stats.invalidLines > 0 || stats.inputProblems.length > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

/** What a command found in logs that makes it exit 1: how many, of what, in how many logs, the first of them. */
export interface LogFindings {
  readonly count: number;
  /** What each is, singular: `invalid line`, `problem`. */
  readonly noun: string;
  readonly logs: number;
  readonly firstLog: string;
}

/**
 * Says on stderr, in one line, why what a command found in logs makes it exit 1: how many, in which log (the first
 * of them when several hold some), and what the command made of them (`fate`).
 */
export function reportFindings(io: CliIo, code: CliErrorCode, found: LogFindings, fate: string): void {
  const where = found.logs > 1 ? ` in ${plural(found.logs, 'log')}, the first here` : '';
  reportError(io, cliError(code, `${plural(found.count, found.noun)}${where}: ${fate}`, found.firstLog));
}

/**
 * Says on stderr, in one line, why invalid lines make a command exit 1: how many, in which log (the first of them
 * when several hold some), and what the command made of them (`fate`).
 */
export function reportInvalidLines(
  io: CliIo,
  invalid: { readonly lines: number; readonly logs: number; readonly firstLog: string },
  fate: string,
): void {
  const found = {
    count: invalid.lines,
    noun: 'invalid line',
    logs: invalid.logs,
    firstLog: invalid.firstLog,
  };
  reportFindings(io, 'invalid-lines', found, fate);
}

/**
 * The exit code of a command that read many logs: 2 when an argument could not be read; else as
 * {@link readingExitCode} over all the logs read. Each error is reported on stderr, in order, then the invalid
 * lines in one line saying what became of them (`invalidLinesFate`). Logs left out as counted elsewhere are said first.
 */
export function logsExitCode(
  io: CliIo,
  outcome: {
    readonly errors: readonly CliError[];
    readonly invalidLines: number;
    readonly logsWithInvalidLines: number;
    readonly firstLogWithInvalidLines: string | null;
    readonly inputProblems: readonly CliError[];
    /** Logs left out as another log holds the same runs: said, and no reason to exit 1. */
    readonly countedElsewhere?: readonly CliError[];
  },
  invalidLinesFate: string,
): ExitCode {
  for (const note of outcome.countedElsewhere ?? []) reportError(io, note);
  for (const error of outcome.errors) reportError(io, error);
  if (outcome.firstLogWithInvalidLines !== null) {
    const invalid = {
      lines: outcome.invalidLines,
      logs: outcome.logsWithInvalidLines,
      firstLog: outcome.firstLogWithInvalidLines,
    };
    reportInvalidLines(io, invalid, invalidLinesFate);
  }
  const reading = readingExitCode(io, outcome);
  return outcome.errors.length > 0 ? EXIT_USAGE_OR_IO : reading;
}

/** The environment variable that sets the size from which files are read in ranges (a byte size such as `64m`). */
export const SPLIT_BYTES_ENV = 'CURSOR_STREAM_SPLIT_BYTES';

/**
 * The size from which a command reads a file in ranges: {@link SPLIT_BYTES_ENV} when it holds a byte size, else
 * `undefined` (the range engine's own, `MIN_SPLIT_BYTES`).
 */
export function splitBytesFrom(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const text = env[SPLIT_BYTES_ENV];
  if (text === undefined) return undefined;
  const value = parseByteSize(text);
  return isOptionValueError(value) ? undefined : value;
}

/** The worker threads a command may use for `--jobs`: at most one per CPU, with a note on stderr when lowered. */
export function jobsFor(io: CliIo, requested: number): number {
  const { jobs, note } = capJobs(requested, availableParallelism());
  if (note !== undefined) io.stderr.write(`cursor-stream: ${note}\n`);
  return jobs;
}
