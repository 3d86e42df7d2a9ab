/** The process streams and environment a command uses, passed in so that commands never reach for globals. */

import { type CliError, cliError, formatCliError } from './cli-error.ts';
import { EXIT_OK, EXIT_PROBLEMS, type ExitCode } from './exit-codes.ts';
import { createProgress, NO_PROGRESS, type Progress, type ProgressTarget } from './progress-bar.ts';
import type { LogStats } from './read-log.ts';

/** A writable stream as the commands use it. */
export interface OutputStream extends ProgressTarget {
  write(text: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

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
export async function writeText(stream: OutputStream, text: string): Promise<void> {
  if (text === '' || stream.write(text)) return;
  await new Promise<void>((resolve) => stream.once('drain', resolve));
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
 * The exit code of a command that read a log: 1 when the log had invalid lines, or is another agent's log (then said
 * on stderr, naming the agent and the line of its first record), else 0.
 */
export function logExitCode(io: CliIo, path: string, stats: LogStats): ExitCode {
  const foreign = stats.foreign;
  if (foreign !== null) {
    reportError(io, cliError('foreign-format', `line ${foreign.loc.line}: ${foreign.message}`, path));
    return EXIT_PROBLEMS;
  }
  return stats.invalidLines > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
