/**
 * `cursor-stream export`: logs out to an export target of `@cursor-stream/export/targets`. A thin adapter: it reads
 * each log with the shared read loop and hands its records and events to the target's exporter.
 */

import { createWriteStream, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { displayPath, escapeControls, plural } from '@cursor-stream/core/text';
import {
  ExportFailure,
  type ExportTotals,
  type ExportWarning,
  type ExportWarningListener,
  type LogExporter,
  otlpTracesEndpointFromEnv,
} from '@cursor-stream/export';
import { checkExportFlags, type ExportTargetOptions, exportTarget } from '@cursor-stream/export/targets';
import {
  expandLogPaths,
  ioError,
  type LogStats,
  logsToCount,
  type ReadingOptions,
  readLog,
} from '@cursor-stream/node/logs';
import { type CliError, cliError, type Result } from '../../io/cli-error.ts';
import {
  type CliIo,
  progressFor,
  readingExitCode,
  refusesStdinTwice,
  reportError,
  reportInvalidLines,
  writeText,
} from '../../io/cli-io.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE_OR_IO, type ExitCode } from '../../io/exit-codes.ts';
import type { InputOptions } from '../../io/options.ts';
import { outputOverInput } from '../../io/output-over-input.ts';
import { startRedaction } from '../../io/redaction.ts';

/** Options of `export`: the reading options, the target and its flags. */
export type ExportOptions = InputOptions &
  ExportTargetOptions & {
    /** The environment variable `endpoint` was read from, when no flag chose where OTLP goes. */
    endpointVariable?: string;
    /** `--redact`: replace secrets by placeholders, in the logs' names too. */
    redact?: boolean;
  };

/**
 * The options with the OTLP endpoint the OpenTelemetry environment variables name, as OpenTelemetry exporters honour
 * them, when `--format otlp` was given neither `--endpoint` nor `-o`: a flag wins.
 */
export function withEndpointFromEnv(options: ExportOptions, env: CliIo['env']): ExportOptions {
  if (options.format !== 'otlp' || options.endpoint !== undefined || options.output !== undefined)
    return options;
  const named = otlpTracesEndpointFromEnv(env);
  return named === undefined
    ? options
    : { ...options, endpoint: named.url, endpointVariable: named.variable };
}

/**
 * The flags' misuse as the CLI reports it: a usage error, naming the environment variable an endpoint came from.
 */
export function exportUsageError(options: ExportOptions): CliError | undefined {
  const { endpointVariable, ...flags } = options;
  const checked = checkExportFlags(flags);
  if (checked.ok) return undefined;
  const from =
    endpointVariable !== undefined && checked.error.flag === '--endpoint'
      ? ` (from ${endpointVariable})`
      : '';
  return cliError('usage', `${checked.error.message}${from}`);
}

interface LineOutput {
  writeLine(line: string): Promise<void>;
  close(): Promise<void>;
}

/** The failure to write the output file, said about that file: an error of the export, not of reading a log. */
function writeFailure(path: string, error: unknown): ExportFailure {
  const known = ioError(path, error);
  const detail = error instanceof Error ? error.message : String(error);
  const why = known.code === 'read-failed' ? `cannot write: ${detail}` : known.message;
  return new ExportFailure({ code: 'write-failed', message: `${displayPath(path)}: ${why}` });
}

/** Lines to a file opened at the first line (or at the end), so that a failed start leaves no empty file. */
function fileOutput(path: string): LineOutput {
  let stream: WriteStream | undefined;
  let failure: unknown;
  const open = (): WriteStream => {
    if (stream !== undefined) return stream;
    const opened = createWriteStream(path);
    opened.on('error', (error) => {
      failure = error;
    });
    stream = opened;
    return opened;
  };
  return {
    async writeLine(line) {
      const target = open();
      if (failure !== undefined) throw writeFailure(path, failure);
      if (target.write(`${line}\n`)) return;
      // A stream that fails while full never drains: its error ends the wait too.
      await new Promise<void>((done) => {
        const ended = (): void => {
          target.off('drain', ended);
          target.off('error', ended);
          done();
        };
        target.once('drain', ended);
        target.once('error', ended);
      });
      if (failure !== undefined) throw writeFailure(path, failure);
    },
    close: () =>
      new Promise((done, fail) => {
        const target = open();
        // A file that could not be opened or written (a missing folder, a full disk) fails here: the stream's error
        // reaches this callback, and may do so before the listener above has kept it.
        target.end((error?: Error | null) => {
          const why = error ?? failure;
          if (why === undefined || why === null) done();
          else fail(writeFailure(path, why));
        });
      }),
  };
}

function lineOutput(path: string | undefined, io: CliIo): LineOutput {
  if (path !== undefined && path !== '-') return fileOutput(path);
  return { writeLine: (line) => writeText(io.stdout, `${line}\n`), close: async () => {} };
}

/** Values changed or left out listed per log; the rest are counted in one line at the log's end. */
const WARNINGS_LISTED_PER_LOG = 20;

/** The warnings of the log being exported, said on stderr as they come, bounded per log. */
function createWarningLines(io: CliIo) {
  let listed = 0;
  let omitted = 0;
  let total = 0;
  return {
    total: () => total,
    listener: ((warning: ExportWarning) => {
      total += 1;
      if (listed >= WARNINGS_LISTED_PER_LOG) {
        omitted += 1;
        return;
      }
      listed += 1;
      const where = warning.line === null ? '' : `line ${warning.line}: `;
      reportError(io, cliError('invalid-value', `${where}${escapeControls(warning.message)}`, warning.file));
    }) satisfies ExportWarningListener,
    /** Ends a log: counts what was not listed. */
    endLog(file: string): void {
      if (omitted > 0) {
        const message = `${plural(omitted, 'more value')} changed or left out, not listed`;
        reportError(io, cliError('invalid-value', message, file));
      }
      listed = 0;
      omitted = 0;
    },
  };
}

/** What reading one log came to: its invalid lines, or the I/O error that stopped it. */
async function exportLog(
  path: string,
  exporter: LogExporter,
  options: ExportOptions & ReadingOptions,
  io: CliIo,
  warnings: ReturnType<typeof createWarningLines>,
  exported: Set<string>,
): Promise<Result<LogStats>> {
  // A log is keyed by its name, and exporting it again replaces its rows. Standard input is a new log each time (the
  // next run piped in), so it is named by the time it was read: one pipe never replaces another's rows.
  const resolved = path === '-' ? `<stdin ${new Date().toISOString()}>` : resolve(path);
  const name = options.redactor?.text(resolved) ?? resolved;
  let modifiedMs: number | undefined;
  if (path !== '-') {
    // Checked before the log is opened for export, which replaces its earlier rows.
    try {
      modifiedMs = (await stat(path)).mtimeMs;
    } catch (error) {
      return { ok: false, error: ioError(path, error) };
    }
  }
  const sink = await exporter.openLog(name, modifiedMs);
  const result = await readLog(path, {
    ...options,
    foreignLogs: 'leave-out',
    stdin: io.stdin,
    progress: progressFor(io, false),
    onRecord: (record, dialect) =>
      sink.observeRecord(record.line, record.value, dialect?.name, record.offset),
    onEvents: (events) => {
      if (events.length > 0) exported.add(path);
      return sink.push(events);
    },
  });
  if (result.ok) exported.add(path);
  await sink.end();
  warnings.endLog(name);
  return result;
}

/** The closing line; `logs` counts the logs read, whole or up to a failure, not those opened and found unreadable. */
function totalsLine(totals: ExportTotals, logs: number, where: string): string {
  return `cursor-stream: exported ${logs} logs, ${totals.sessions} sessions, ${totals.toolCalls} tool calls, ${totals.events} events to ${where}\n`;
}

/** An export that cannot go on: the exporter's own failure, the output's I/O error, or the database's error. */
function exportFailure(error: unknown, where: string): CliError {
  if (error instanceof ExportFailure) return cliError('export-failed', error.message);
  const errno = (error as { code?: unknown } | null)?.code;
  if (typeof errno === 'string' && errno.startsWith('E')) return ioError(where, error);
  const message = error instanceof Error ? error.message : String(error);
  return cliError('export-failed', message.split('\n')[0] ?? message, where);
}

/**
 * Runs `export` on logs and directories of logs. A log that cannot be read is reported and skipped; the others are
 * still exported.
 *
 * @returns 0; 1 when a log had invalid lines; 2 on a usage error, an unreadable log, or a failed export.
 */
export async function runExport(
  paths: readonly string[],
  given: ExportOptions,
  io: CliIo,
): Promise<ExitCode> {
  if (refusesStdinTwice(paths, io)) return EXIT_USAGE_OR_IO;
  const options = withEndpointFromEnv(given, io.env);
  const usage = exportUsageError(options);
  if (usage !== undefined) {
    reportError(io, usage);
    return EXIT_USAGE_OR_IO;
  }
  const overInput = options.output === undefined ? undefined : await outputOverInput(options.output, paths);
  if (overInput !== undefined) {
    reportError(io, overInput);
    return EXIT_USAGE_OR_IO;
  }
  const target = exportTarget(options.format);
  const where = target.destination(options);
  let output: LineOutput | undefined;
  let code: ExitCode = EXIT_OK;
  const warnings = createWarningLines(io);
  const invalid = { lines: 0, logs: 0, firstLog: '' };
  const exported = new Set<string>();
  const redaction = await startRedaction(options.redact, io);
  const reading = { ...options, redactor: redaction.redactor };
  try {
    const exporter = await target.create(options, {
      variables: io.env,
      onWarning: warnings.listener,
      openLines(path) {
        output = lineOutput(path, io);
        return output.writeLine;
      },
    });
    // A @cursor/sdk store's run rows beside the same runs' events would be exported as sessions twice.
    const { entries, leftOut } = logsToCount(paths, await expandLogPaths(paths, { sizes: false }));
    for (const note of leftOut) reportError(io, note);
    for (const entry of entries) {
      const result =
        'error' in entry
          ? { ok: false as const, error: entry.error }
          : await exportLog(entry.path, exporter, reading, io, warnings, exported);
      if (!result.ok) {
        reportError(io, result.error);
        code = EXIT_USAGE_OR_IO;
      } else {
        const reading = readingExitCode(io, result.value);
        if (code === EXIT_OK) code = reading;
        if (result.value.invalidLines > 0) {
          invalid.lines += result.value.invalidLines;
          invalid.logs += 1;
          if (invalid.logs === 1) invalid.firstLog = entry.path;
        }
      }
    }
    const totals = await exporter.close();
    await output?.close();
    if (invalid.logs > 0) reportInvalidLines(io, invalid, 'exported as invalid-line events');
    io.stderr.write(totalsLine(totals, exported.size, where));
    redaction.report();
  } catch (error) {
    reportError(io, exportFailure(error, where));
    return EXIT_USAGE_OR_IO;
  }
  return code === EXIT_OK && warnings.total() > 0 ? EXIT_PROBLEMS : code;
}
