/**
 * `cursor-stream normalize`: canonical events as NDJSON, one per line, each with its `loc`. A large file is read in
 * ranges on worker threads, with the same output.
 */

import { jsonPath } from '@cursor-stream/core/text';
import {
  expandLogPaths,
  type LogResult,
  type LogStats,
  type ReadingOptions,
  readEachLog,
  readLog,
} from '@cursor-stream/node/logs';
import { readInRanges } from '@cursor-stream/node/ranges';
import { commandModuleUrl } from '../../command-modules.ts';
import {
  type CliIo,
  foreignLogsOf,
  jobsFor,
  logsExitCode,
  progressFor,
  refusesStdinTwice,
  splitBytesFrom,
  writeText,
} from '../../io/cli-io.ts';
import { EXIT_USAGE_OR_IO, type ExitCode } from '../../io/exit-codes.ts';
import type { InputOptions } from '../../io/options.ts';
import { startRedaction } from '../../io/redaction.ts';
import { eventLines } from './output.ts';

/** Options of `normalize`. */
export interface NormalizeOptions extends InputOptions {
  /** Worker threads a large file may be read on. */
  jobs: number;
  /** Replace secrets by placeholders; read on one thread then. */
  redact?: boolean;
}

async function normalizeInRanges(
  path: string,
  options: NormalizeOptions,
  io: CliIo,
): Promise<LogResult<LogStats> | null> {
  const read = await readInRanges(path, {
    ...options,
    jobs: jobsFor(io, options.jobs),
    splitBytes: splitBytesFrom(io.env),
    consumer: commandModuleUrl('normalize', 'range-consumer'),
    progress: progressFor(io, true),
    async items(chunks) {
      for (const chunk of chunks) await writeText(io.stdout, chunk as Uint8Array);
    },
    result: () => undefined,
  });
  return read === null || !read.ok ? read : { ok: true, value: read.value.stats };
}

/**
 * Reads a log on this thread.
 *
 * @param file - The log's name on each of its events, when more than one log is read.
 */
function normalizeHere(
  path: string,
  file: string | undefined,
  options: NormalizeOptions & ReadingOptions,
  io: CliIo,
): Promise<LogResult<LogStats>> {
  return readLog(path, {
    ...options,
    stdin: io.stdin,
    progress: progressFor(io, true),
    // One write per batch: a write per event costs more than the JSON it carries.
    // An event too deep to write becomes an invalid-line at its location; the stream goes on.
    onEvents: (events) => writeText(io.stdout, eventLines(events, file)),
  });
}

/** What `normalize` makes of invalid lines, said when they make it exit 1. */
const NORMALIZE_INVALID_LINES = 'written as invalid-line events';

/**
 * Runs `normalize` on logs and directories of logs, one after the other. One log alone is written as it always was
 * (a large file read in ranges on `--jobs` threads); with more, each event's line names its log first.
 *
 * @returns 0, 1 when a log had invalid lines or problems after its readable part, 2 when an argument could not be
 *   read.
 */
export async function runNormalize(
  paths: readonly string[],
  options: NormalizeOptions,
  io: CliIo,
): Promise<ExitCode> {
  if (refusesStdinTwice(paths, io)) return EXIT_USAGE_OR_IO;
  const entries = await expandLogPaths(paths, { sizes: false });
  const several = entries.length > 1;
  const redaction = await startRedaction(options.redact, io);
  const outcome = await readEachLog(entries, async (path) => {
    const file = several ? jsonPath(path) : undefined;
    const foreignLogs = foreignLogsOf(path, several);
    if (redaction.redactor !== undefined)
      return normalizeHere(path, file, { ...options, foreignLogs, redactor: redaction.redactor }, io);
    // A log that is another agent's from its start is never split: it comes back here to be left out.
    return (
      (several ? null : await normalizeInRanges(path, options, io)) ??
      (await normalizeHere(path, file, { ...options, foreignLogs }, io))
    );
  });
  redaction.report();
  return logsExitCode(io, outcome, NORMALIZE_INVALID_LINES);
}
