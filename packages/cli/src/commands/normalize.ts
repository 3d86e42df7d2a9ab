/** `cursor-stream normalize`: canonical events as NDJSON, one per line, each with its `loc`. */

import { type CliIo, progressFor, readingExitCode, reportError, writeText } from '../cli-io.ts';
import { EXIT_USAGE_OR_IO, type ExitCode } from '../exit-codes.ts';
import { eventLines } from '../format/event-lines.ts';
import type { InputOptions } from '../options.ts';
import { readLog } from '../read-log.ts';

/**
 * Runs `normalize` on one log.
 *
 * @returns 0, 1 when the log had invalid lines, 2 on an I/O error.
 */
export async function runNormalize(path: string, options: InputOptions, io: CliIo): Promise<ExitCode> {
  const result = await readLog(path, {
    ...options,
    stdin: io.stdin,
    progress: progressFor(io, true),
    // One write per batch: a write per event costs more than the JSON it carries.
    // An event too deep to write becomes an invalid-line at its location; the stream goes on.
    onEvents: (events) => writeText(io.stdout, eventLines(events)),
  });
  if (!result.ok) {
    reportError(io, result.error);
    return EXIT_USAGE_OR_IO;
  }
  return readingExitCode(io, result.value);
}
