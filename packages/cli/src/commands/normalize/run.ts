/**
 * `cursor-stream normalize`: canonical events as NDJSON, one per line, each with its `loc`. A large file is read in
 * ranges on worker threads, with the same output.
 */

import { type LogStats, type ReadingOptions, readLog } from '@cursor-stream/node/logs';
import { readInRanges } from '@cursor-stream/node/ranges';
import { commandModuleUrl } from '../../command-modules.ts';
import type { Result } from '../../io/cli-error.ts';
import {
  type CliIo,
  jobsFor,
  progressFor,
  readingExitCode,
  reportError,
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
): Promise<Result<LogStats> | null> {
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

function normalizeHere(
  path: string,
  options: NormalizeOptions & ReadingOptions,
  io: CliIo,
): Promise<Result<LogStats>> {
  return readLog(path, {
    ...options,
    stdin: io.stdin,
    progress: progressFor(io, true),
    // One write per batch: a write per event costs more than the JSON it carries.
    // An event too deep to write becomes an invalid-line at its location; the stream goes on.
    onEvents: (events) => writeText(io.stdout, eventLines(events)),
  });
}

/**
 * Runs `normalize` on one log.
 *
 * @returns 0, 1 when the log had invalid lines, 2 on an I/O error.
 */
export async function runNormalize(path: string, options: NormalizeOptions, io: CliIo): Promise<ExitCode> {
  const redaction = await startRedaction(options.redact, io);
  const result = redaction.redactor
    ? await normalizeHere(path, { ...options, redactor: redaction.redactor }, io)
    : ((await normalizeInRanges(path, options, io)) ?? (await normalizeHere(path, options, io)));
  redaction.report();
  if (!result.ok) {
    reportError(io, result.error);
    return EXIT_USAGE_OR_IO;
  }
  return readingExitCode(io, result.value);
}
