/** `cursor-stream usage`: token totals of logs per day, session or model, from each session's `result.usage`. */

import { type CliIo, logsExitCode, progressFor, writeText } from '../cli-io.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { InputOptions } from '../options.ts';
import { type UsageGrouping, writeUsage } from '../report/index.ts';

/** Options of `usage`. */
export interface UsageCommandOptions extends InputOptions {
  by: UsageGrouping;
  json: boolean;
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
  return logsExitCode(io, outcome);
}
