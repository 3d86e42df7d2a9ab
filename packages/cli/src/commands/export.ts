/**
 * `cursor-stream export`: logs out to OpenTelemetry (OTLP), DuckDB or ClickHouse. A thin adapter: it reads each
 * log with the shared read loop and hands its records and events to an exporter of `@cursor-stream/export`.
 */

import { createWriteStream, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { escapeControls, plural } from '@cursor-stream/core/text';
import {
  ExportFailure,
  type ExportTotals,
  type ExportWarning,
  type ExportWarningListener,
  type LogExporter,
} from '@cursor-stream/export';
import {
  expandLogPaths,
  ioError,
  type LogStats,
  type ReadingOptions,
  readLog,
} from '@cursor-stream/node/logs';
import { type CliError, cliError, type Result } from '../cli-error.ts';
import { type CliIo, progressFor, readingExitCode, reportError, writeText } from '../cli-io.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE_OR_IO, type ExitCode } from '../exit-codes.ts';
import type { ExportFormat } from '../export-formats.ts';
import type { InputOptions } from '../options.ts';
import { startRedaction } from '../redaction.ts';

/** Options of `export`. */
export interface ExportOptions extends InputOptions {
  format: ExportFormat;
  /** `-o`: the OTLP JSON lines file (`-`: standard output) or the DuckDB database file. */
  output?: string;
  /** `--endpoint`: an OTLP/HTTP traces URL. */
  endpoint?: string;
  /** `--url`: ClickHouse's HTTP interface. */
  url?: string;
  includeContent: boolean;
  /** `--redact`: replace secrets by placeholders, in the logs' names too. */
  redact?: boolean;
}

/** Why the options do not fit together, or `undefined` when they do. */
export function exportUsageError(options: ExportOptions): CliError | undefined {
  const usage = (message: string) => cliError('usage', message);
  const { format } = options;
  if (format !== 'otlp' && options.endpoint !== undefined) return usage('--endpoint is for --format otlp');
  if (format !== 'otlp' && options.includeContent) return usage('--include-content is for --format otlp');
  if (format !== 'clickhouse' && options.url !== undefined) return usage('--url is for --format clickhouse');
  if (format === 'otlp' && options.endpoint !== undefined && options.output !== undefined) {
    return usage('--format otlp writes to -o FILE or to --endpoint URL, not both');
  }
  if (format === 'duckdb' && options.output === undefined)
    return usage('--format duckdb needs -o FILE.duckdb');
  if (format === 'clickhouse' && options.output !== undefined)
    return usage('--format clickhouse takes --url, not -o');
  if (format === 'clickhouse' && options.url === undefined)
    return usage('--format clickhouse needs --url URL');
  for (const url of [options.endpoint, options.url]) {
    if (url === undefined) continue;
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      return usage(`not an http(s) URL: ${url}`);
    // A password in a URL ends up in shell history and process lists.
    const parsed = new URL(url);
    if (parsed.password !== '' || parsed.searchParams.has('password')) {
      return usage('give credentials in the environment, not in the URL');
    }
  }
  return undefined;
}

interface LineOutput {
  writeLine(line: string): Promise<void>;
  close(): Promise<void>;
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
      if (failure !== undefined) throw failure;
      if (!target.write(`${line}\n`)) await new Promise<void>((done) => target.once('drain', () => done()));
    },
    close: () =>
      new Promise((done, fail) => {
        const target = open();
        target.end(() => (failure === undefined ? done() : fail(failure)));
        target.once('error', fail);
      }),
  };
}

function lineOutput(path: string | undefined, io: CliIo): LineOutput {
  if (path !== undefined && path !== '-') return fileOutput(path);
  return { writeLine: (line) => writeText(io.stdout, `${line}\n`), close: async () => {} };
}

/**
 * The attribute length limit the OpenTelemetry SDKs read from the environment: the span one, else the general one.
 * A value that is not a whole number of one or more is passed over, as the SDKs do.
 */
function attributeValueLengthLimit(env: CliIo['env']): number | undefined {
  for (const name of ['OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT', 'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT']) {
    const value = env[name]?.trim();
    if (value !== undefined && /^\d{1,9}$/.test(value) && Number(value) > 0) return Number(value);
  }
  return undefined;
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

async function createExporter(
  options: ExportOptions,
  io: CliIo,
  output: LineOutput,
  onWarning: ExportWarningListener,
): Promise<LogExporter> {
  if (options.format === 'duckdb') {
    const { createDuckDbExporter } = await import('@cursor-stream/export/duckdb');
    return createDuckDbExporter({ path: options.output ?? '', onWarning });
  }
  if (options.format === 'clickhouse') {
    const { createClickHouseExporter } = await import('@cursor-stream/export/clickhouse');
    const credentials: { user?: string; password?: string } = {};
    if (io.env.CLICKHOUSE_USER !== undefined) credentials.user = io.env.CLICKHOUSE_USER;
    if (io.env.CLICKHOUSE_PASSWORD !== undefined) credentials.password = io.env.CLICKHOUSE_PASSWORD;
    return createClickHouseExporter({ url: options.url ?? '', ...credentials, onWarning });
  }
  const { createOtlpExporter } = await import('@cursor-stream/export/otlp');
  const target =
    options.endpoint === undefined
      ? { kind: 'json-lines' as const, writeLine: output.writeLine }
      : { kind: 'endpoint' as const, url: options.endpoint };
  const limit = attributeValueLengthLimit(io.env);
  return createOtlpExporter({
    target,
    includeContent: options.includeContent,
    onWarning,
    ...(limit === undefined ? {} : { attributeValueLengthLimit: limit }),
  });
}

/** What reading one log came to: its invalid lines, or the I/O error that stopped it. */
async function exportLog(
  path: string,
  exporter: LogExporter,
  options: ExportOptions & ReadingOptions,
  io: CliIo,
  warnings: ReturnType<typeof createWarningLines>,
): Promise<Result<LogStats>> {
  const resolved = path === '-' ? '<stdin>' : resolve(path);
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
    stdin: io.stdin,
    progress: progressFor(io, false),
    onRecord: (record, dialect) => sink.observeRecord(record.line, record.value, dialect?.name),
    onEvents: (events) => sink.push(events),
  });
  await sink.end();
  warnings.endLog(name);
  return result;
}

function totalsLine(totals: ExportTotals, where: string): string {
  return `cursor-stream: exported ${totals.logs} logs, ${totals.sessions} sessions, ${totals.toolCalls} tool calls, ${totals.events} events to ${where}\n`;
}

function destination(options: ExportOptions): string {
  return (
    options.endpoint ??
    options.url ??
    (options.output === undefined || options.output === '-' ? '<stdout>' : options.output)
  );
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
  options: ExportOptions,
  io: CliIo,
): Promise<ExitCode> {
  const usage = exportUsageError(options);
  if (usage !== undefined) {
    reportError(io, usage);
    return EXIT_USAGE_OR_IO;
  }
  const where = destination(options);
  const output = lineOutput(options.format === 'otlp' ? options.output : undefined, io);
  let code: ExitCode = EXIT_OK;
  const warnings = createWarningLines(io);
  const redaction = await startRedaction(options.redact, io);
  const reading = { ...options, redactor: redaction.redactor };
  try {
    const exporter = await createExporter(options, io, output, warnings.listener);
    for (const entry of await expandLogPaths(paths)) {
      const result =
        'error' in entry
          ? { ok: false as const, error: entry.error }
          : await exportLog(entry.path, exporter, reading, io, warnings);
      if (!result.ok) {
        reportError(io, result.error);
        code = EXIT_USAGE_OR_IO;
      } else {
        const reading = readingExitCode(io, result.value);
        if (code === EXIT_OK) code = reading;
      }
    }
    const totals = await exporter.close();
    await output.close();
    io.stderr.write(totalsLine(totals, where));
    redaction.report();
  } catch (error) {
    reportError(io, exportFailure(error, where));
    return EXIT_USAGE_OR_IO;
  }
  return code === EXIT_OK && warnings.total() > 0 ? EXIT_PROBLEMS : code;
}
