/** `cursor-stream report`: one self-contained HTML page of the sessions of logs. */

import { type FileHandle, open } from 'node:fs/promises';
import { displayPath } from '@cursor-stream/core/text';
import { createReport, type ReportLimits } from '@cursor-stream/inspect/report';
import { ioError, type LogSessionsOptions, visitLogSessions } from '@cursor-stream/node/logs';
import { type CliError, cliError, type Result } from '../../io/cli-error.ts';
import {
  type CliIo,
  logsExitCode,
  progressFor,
  refusesStdinTwice,
  reportError,
  type WriteText,
  writeText,
} from '../../io/cli-io.ts';
import { EXIT_USAGE_OR_IO, type ExitCode } from '../../io/exit-codes.ts';
import type { InputOptions } from '../../io/options.ts';
import { outputOverInput } from '../../io/output-over-input.ts';
import { startRedaction } from '../../io/redaction.ts';
import { createValueProblemList, type LogsOutcome, withValueProblems } from '../../io/value-problems.ts';

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
      failure = cliError('read-failed', `cannot write the report: ${writeErrorOf(error)}`, path);
    }
  };
  return { write, failure: () => failure };
}

/** Why a write failed, as Node says it (`ENOSPC: no space left on device, write`). */
function writeErrorOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What the report makes of invalid lines, said when they make it exit 1. */
const REPORT_INVALID_LINES = "counted in the page's footer (cursor-stream validate lists them)";

/** Options of {@link writeReport}. */
export interface ReportOptions extends LogSessionsOptions {
  /** The page's title. @defaultValue `'cursor-stream report'` */
  title?: string;
  /** Caps on what the page shows; the defaults are `DEFAULT_REPORT_LIMITS`. */
  limits?: Partial<ReportLimits>;
}

/**
 * Reads the logs session by session and writes the report page through `write`: a section as each session ends,
 * the overview and index last, so that memory holds one session and the index rows, never the page.
 *
 * @returns What reading came to: unreadable arguments and invalid lines are for the caller to report.
 */
export async function writeReport(
  paths: readonly string[],
  options: ReportOptions,
  write: WriteText,
): Promise<LogsOutcome> {
  const report = createReport({
    ...(options.title === undefined ? {} : { title: options.title }),
    inputs: paths,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  const problems = createValueProblemList();
  await write(report.head);
  const outcome = await visitLogSessions(
    paths,
    { ...options, foreignLogs: 'leave-out' },
    {
      start(path) {
        report.startSession(displayPath(path));
      },
      event(event, times) {
        report.push(event, times);
      },
      async end() {
        const ended = report.endSession();
        if (ended === undefined) return;
        problems.add(ended.facts);
        if (ended.html !== '') await write(ended.html);
      },
    },
  );
  await write(
    report.end({
      files: outcome.files,
      invalidLines: outcome.invalidLines,
      valuesLeftOut: problems.count,
      eventsOutsideSessions: outcome.eventsOutsideSessions,
      unreadable: outcome.errors.length,
    }),
  );
  return withValueProblems(outcome, problems);
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
  if (refusesStdinTwice(paths, io)) return EXIT_USAGE_OR_IO;
  const { output, redact, ...inputOptions } = options;
  const overInput = await outputOverInput(output, paths);
  if (overInput !== undefined) {
    reportError(io, overInput);
    return EXIT_USAGE_OR_IO;
  }
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
    return logsExitCode(
      io,
      await writeReport(paths, readOptions, (text) => writeText(io.stdout, text)),
      REPORT_INVALID_LINES,
    );
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
    if (failure === undefined) return logsExitCode(io, outcome, REPORT_INVALID_LINES);
    reportError(io, failure);
    return EXIT_USAGE_OR_IO;
  } finally {
    await opened.value.close();
  }
}
