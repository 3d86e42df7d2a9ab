/**
 * `cursor-stream bench`: the project's throughput measurement on a user's own logs. Every run of every row is a fresh
 * child process of this CLI (the project's benchmark does the same), rounds interleaved with the row order rotated
 * each round, so that drift on a shared machine spreads over all rows.
 */

import { stat } from 'node:fs/promises';
import { openLog } from '@cursor-stream/node/logs';
import { type CliError, cliError, type Result } from '../../io/cli-error.ts';
import { type CliIo, reportError, reportInvalidLines, writeText } from '../../io/cli-io.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE_OR_IO, type ExitCode } from '../../io/exit-codes.ts';
import type { InputOptions } from '../../io/options.ts';
import {
  type BenchFileReport,
  type BenchReport,
  fileReport,
  formatBenchJson,
  formatBenchText,
} from './bench-report.ts';
import { BENCH_ROWS, type BenchRowName, type BenchRun, NO_STDIN } from './bench-rows.ts';
import { describeMachine } from './measurement.ts';
import { spawnBenchRun } from './spawn-bench-run.ts';

/** Options of `bench`. */
export interface BenchOptions extends InputOptions {
  /** Runs per row and file; the median is reported. */
  runs: number;
  json: boolean;
}

/** Checks that a log can be opened before any run starts, so a typo fails at once. */
async function checkReadable(path: string): Promise<Result<void>> {
  if (path === '-')
    return { ok: false, error: cliError('usage', 'bench reads each file several times: give files, not -') };
  // A pipe or a device cannot be read again, and opening a pipe waits for a writer that may never come.
  const stats = await stat(path).catch(() => undefined);
  if (stats !== undefined && !stats.isFile() && !stats.isDirectory())
    return {
      ok: false,
      error: cliError(
        'usage',
        'bench reads each file several times: give files, not a pipe or a device',
        path,
      ),
    };
  const opened = await openLog(path, { stdin: NO_STDIN });
  if (!opened.ok) return opened;
  await opened.value.close();
  return { ok: true, value: undefined };
}

/** Times every row `runs` times on one log, rounds interleaved. */
async function measureFile(
  path: string,
  options: BenchOptions,
): Promise<Result<{ report: BenchFileReport; invalidLines: number; foreign: CliError | undefined }>> {
  const runs = new Map<BenchRowName, BenchRun[]>(BENCH_ROWS.map((row) => [row, []]));
  let invalidLines = 0;
  let foreign: CliError | undefined;
  const taskOptions: InputOptions =
    options.maxRecordBytes === undefined
      ? { dialect: options.dialect }
      : { dialect: options.dialect, maxRecordBytes: options.maxRecordBytes };
  for (let round = 0; round < options.runs; round++) {
    const shift = round % BENCH_ROWS.length;
    for (const row of [...BENCH_ROWS.slice(shift), ...BENCH_ROWS.slice(0, shift)]) {
      const result = await spawnBenchRun({ row, path, options: taskOptions });
      if (!result.ok) return result;
      runs.get(row)?.push(result.value);
      // Every run of the pipeline reads the same lines: the count is the log's, not a sum over runs.
      if (row !== 'reference-loop') invalidLines = Math.max(invalidLines, result.value.invalidLines);
      foreign ??= result.value.foreign;
    }
  }
  return { ok: true, value: { report: fileReport(path, runs), invalidLines, foreign } };
}

/**
 * Runs `bench` on the given logs.
 *
 * @returns 0, 1 when a log had invalid lines or was another agent's (measured all the same, and named on stderr), 2
 * on a usage or I/O error (nothing is measured then).
 */
export async function runBench(
  paths: readonly string[],
  options: BenchOptions,
  io: CliIo,
): Promise<ExitCode> {
  for (const path of paths) {
    const readable = await checkReadable(path);
    if (!readable.ok) {
      reportError(io, readable.error);
      return EXIT_USAGE_OR_IO;
    }
  }
  const report: BenchReport = { machine: describeMachine(), runs: options.runs, files: [] };
  const invalid = { lines: 0, logs: 0, firstLog: '' };
  const foreignLogs: CliError[] = [];
  for (const path of paths) {
    const measured = await measureFile(path, options);
    if (!measured.ok) {
      reportError(io, measured.error);
      return EXIT_USAGE_OR_IO;
    }
    report.files.push(measured.value.report);
    if (measured.value.foreign !== undefined)
      foreignLogs.push({
        ...measured.value.foreign,
        message: `${measured.value.foreign.message}; measured all the same`,
      });
    if (measured.value.invalidLines === 0) continue;
    invalid.lines += measured.value.invalidLines;
    invalid.logs += 1;
    if (invalid.logs === 1) invalid.firstLog = path;
  }
  await writeText(io.stdout, options.json ? formatBenchJson(report) : formatBenchText(report));
  for (const foreign of foreignLogs) reportError(io, foreign);
  if (invalid.logs === 0) return foreignLogs.length === 0 ? EXIT_OK : EXIT_PROBLEMS;
  reportInvalidLines(io, invalid, 'measured as they are (cursor-stream validate lists them)');
  return EXIT_PROBLEMS;
}
