/** `cursor-stream usage`: token totals of logs per day, session or model, from each session's `result.usage`. */

import { type CliIo, progressFor, reportError, writeText } from '../cli-io.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE_OR_IO, type ExitCode } from '../exit-codes.ts';
import type { InputOptions } from '../options.ts';
import type { LogSessionsOutcome } from '../report/index.ts';
import { type UsageGrouping, writeUsage } from '../report/index.ts';

/** Options of `usage`. */
export interface UsageCommandOptions extends InputOptions {
  by: UsageGrouping;
  json: boolean;
}

/**
 * The exit code of a command that read many logs: 2 if one could not be read; 1 for invalid lines or a log read
 * but not cleanly (a foreign agent's log, bad gzip data), each said on stderr; else 0.
 */
export function readingExitCode(outcome: LogSessionsOutcome, io: CliIo): ExitCode {
  for (const error of [...outcome.errors, ...outcome.inputProblems]) reportError(io, error);
  if (outcome.errors.length > 0) return EXIT_USAGE_OR_IO;
  return outcome.invalidLines > 0 || outcome.inputProblems.length > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

/**
 * Runs `usage` on logs and directories of logs.
 *
 * @returns 0, 1 when a log had invalid lines, 2 when an argument could not be read.
 */
export async function runUsage(
  paths: readonly string[],
  options: UsageCommandOptions,
  io: CliIo,
): Promise<ExitCode> {
  const outcome = await writeUsage(
    paths,
    { ...options, stdin: io.stdin, progress: progressFor(io, false) },
    (text) => writeText(io.stdout, text),
  );
  return readingExitCode(outcome, io);
}
