/** `cursor-stream census`: what the schemas and the canonical model do not know about a set of logs. */

import { censusOfLogs } from '../census/census-log.ts';
import { formatCensusText } from '../census/census-report.ts';
import { censusFoundDrift } from '../census/census-tally.ts';
import { cliError } from '../cli-error.ts';
import { type CliIo, progressFor, reportError, writeText } from '../cli-io.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE_OR_IO, type ExitCode } from '../exit-codes.ts';
import { createPalette, shouldUseColor } from '../format/colors.ts';
import type { InputOptions } from '../options.ts';

/** Options of `census`. */
export interface CensusOptions extends InputOptions {
  json: boolean;
}

/**
 * Runs `census` on files and directories.
 *
 * @returns 0 when the schemas and the model know everything read, 1 when something is unknown, a line is not a
 *   record or a log is another agent's (said on stderr), 2 when a log could not be read.
 */
export async function runCensus(
  paths: readonly string[],
  options: CensusOptions,
  io: CliIo,
): Promise<ExitCode> {
  if (paths.filter((path) => path === '-').length > 1) {
    reportError(io, cliError('usage', 'standard input (-) can be read only once'));
    return EXIT_USAGE_OR_IO;
  }
  const { json, ...inputOptions } = options;
  let problems = 0;
  const census = await censusOfLogs(paths, inputOptions, {
    stdin: io.stdin,
    progress: progressFor(io, false),
    onProblem(problem) {
      problems += 1;
      reportError(io, problem);
    },
  });
  if (json) await writeText(io.stdout, `${JSON.stringify(census, null, 2)}\n`);
  else {
    const palette = createPalette(shouldUseColor({ isTTY: io.stdout.isTTY, env: io.env }));
    await writeText(io.stdout, `${formatCensusText(census, palette).join('\n')}\n`);
  }
  if (census.unreadable.length > 0) return EXIT_USAGE_OR_IO;
  return censusFoundDrift(census) || problems > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
