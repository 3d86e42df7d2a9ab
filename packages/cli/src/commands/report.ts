/** `cursor-stream report`: one self-contained HTML page of the sessions of logs. */

import { type FileHandle, open } from 'node:fs/promises';
import { ioError } from '@cursor-stream/node/logs';
import { type CliError, cliError, type Result } from '../cli-error.ts';
import { type CliIo, logsExitCode, progressFor, reportError, writeText } from '../cli-io.ts';
import { EXIT_USAGE_OR_IO, type ExitCode } from '../exit-codes.ts';
import type { InputOptions } from '../options.ts';
import { startRedaction } from '../redaction.ts';
import { type WriteText, writeReport } from '../report/index.ts';

/** Options of `report`. */
export interface ReportCommandOptions extends InputOptions {
  /** Where to write the page; `-` for standard output. */
  output: string;
  /** Replace secrets by placeholders. */
  redact?: boolean;
}

async function openOutput(path: string): Promise<Result<FileHandle>> {
  try {
    return { ok: true, value: await open(path, 'w') };
  } catch (error) {
    return { ok: false, error: ioError(path, error) };
  }
}

/** Writes to the file, keeping the first write error instead of throwing it, so that reading can end cleanly. */
function fileWriter(handle: FileHandle, path: string) {
  let failure: CliError | undefined;
  const write: WriteText = async (text) => {
    if (failure !== undefined) return;
    try {
      await handle.write(text);
    } catch (error) {
      failure = cliError('read-failed', `cannot write the report: ${ioError(path, error).message}`, path);
    }
  };
  return { write, failure: () => failure };
}

/**
 * Runs `report` on logs and directories of logs.
 *
 * @returns 0, 1 when a log had invalid lines, 2 when an argument could not be read or the page not written.
 */
export async function runReport(
  paths: readonly string[],
  options: ReportCommandOptions,
  io: CliIo,
): Promise<ExitCode> {
  const { output, redact, ...inputOptions } = options;
  const redaction = await startRedaction(redact, io);
  const readOptions = {
    ...inputOptions,
    redactor: redaction.redactor,
    stdin: io.stdin,
    progress: progressFor(io, false),
  };
  try {
    return await writeReportTo(paths, output, readOptions, io);
  } finally {
    redaction.report();
  }
}

async function writeReportTo(
  paths: readonly string[],
  output: string,
  readOptions: Parameters<typeof writeReport>[1],
  io: CliIo,
): Promise<ExitCode> {
  if (output === '-') {
    return logsExitCode(io, await writeReport(paths, readOptions, (text) => writeText(io.stdout, text)));
  }
  const opened = await openOutput(output);
  if (!opened.ok) {
    reportError(io, opened.error);
    return EXIT_USAGE_OR_IO;
  }
  const file = fileWriter(opened.value, output);
  try {
    const outcome = await writeReport(paths, readOptions, file.write);
    const failure = file.failure();
    if (failure === undefined) return logsExitCode(io, outcome);
    reportError(io, failure);
    return EXIT_USAGE_OR_IO;
  } finally {
    await opened.value.close();
  }
}
