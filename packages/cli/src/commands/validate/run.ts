/** `cursor-stream validate`: schema, tokenizer and stream checks over many logs, in parallel, reported in order. */

import { plural } from '@cursor-stream/core/text';
import { createPalette, shouldUseColor } from '@cursor-stream/inspect/terminal';
import {
  type FileReport,
  fileReportLines,
  findingLines,
  problemCount,
  totalsLine,
  unreadableFileJson,
  type ValidateFileJson,
  type ValidateJson,
  validationReport,
} from '@cursor-stream/inspect/validate';
import type { Progress } from '@cursor-stream/node/logs';
import { expandLogPaths, type LogEntry } from '@cursor-stream/node/logs';
import { readInRanges, runInWorkers } from '@cursor-stream/node/ranges';
import { commandModuleUrl } from '../../command-modules.ts';
import { type CliError, cliError, type Result } from '../../io/cli-error.ts';
import {
  type CliIo,
  jobsFor,
  progressFor,
  refusesStdinTwice,
  reportError,
  reportFindings,
  splitBytesFrom,
  writeText,
} from '../../io/cli-io.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE_OR_IO, type ExitCode } from '../../io/exit-codes.ts';
import {
  joinFindings,
  keptFindings,
  type StepFindings,
  type ValidateRangeResult,
  type ValidateRangeSetup,
} from './range-consumer.ts';
import { type ValidateLogOptions, type ValidateLogResult, validateLog } from './validate-log.ts';

/** A file to validate, and its place among the arguments' files. */
interface ValidateTask {
  readonly index: number;
  readonly path: string;
  /** Bytes on disk, when known. */
  readonly size: number | undefined;
  /** Whether the path was a regular file when listed. */
  readonly regularFile: boolean;
}

/**
 * Files smaller than this are validated on the main thread: a small log is read in well under a millisecond, less
 * than handing it to a worker and its report back costs.
 */
const WORKER_MIN_BYTES = 256 * 1024;

/** Options of `validate`. */
export interface ValidateOptions extends ValidateLogOptions {
  json: boolean;
  /** Files validated at once, each on its own worker thread. */
  jobs: number;
  /** Read a single large file in ranges on the jobs (`--jobs` given); several files always take one job each. */
  splitOneFile?: boolean;
}

function exitCodeOf(files: readonly ValidateFileJson[]): ExitCode {
  if (files.some((file) => 'error' in file)) return EXIT_USAGE_OR_IO;
  return files.some((file) => problemCount(file) > 0) ? EXIT_PROBLEMS : EXIT_OK;
}

/** Characters of file reports gathered before they are written: under a large object's size (see `summary`). */
const PENDING_OUTPUT_CHARS = 16 * 1024;

/** Collects results as they finish and prints them in argument order, each as soon as all before it are done. */
function createOrderedPrinter(entries: readonly LogEntry[], options: ValidateOptions, io: CliIo) {
  const palette = createPalette(shouldUseColor({ isTTY: io.stdout.isTTY, env: io.env }));
  const files: (ValidateFileJson | undefined)[] = entries.map(() => undefined);
  const errors: (CliError | undefined)[] = entries.map(() => undefined);
  let printed = 0;
  // Reports not yet written: one write per file would cost most of a small log's time. A terminal sees each at once.
  let pending = '';
  const pendingLimit = io.stdout.isTTY === true ? 0 : PENDING_OUTPUT_CHARS;
  function writePending(): void {
    if (pending === '') return;
    io.stdout.write(pending);
    pending = '';
  }
  function flush(): void {
    for (let file = files[printed]; file !== undefined; file = files[printed]) {
      const error = errors[printed];
      if (error !== undefined) {
        // What was found before the read failed comes first, as it was read first.
        if (!options.json)
          pending += findingLines(file, palette)
            .map((line) => `${line}\n`)
            .join('');
        // The error's line keeps its place among the reports, as a reader of both streams sees them.
        writePending();
        reportError(io, error);
      } else if (!options.json) pending += `${fileReportLines(file, palette).join('\n')}\n`;
      printed += 1;
    }
    if (pending.length > pendingLimit) writePending();
  }
  return {
    files,
    palette,
    /** Writes the reports still held. */
    end: writePending,
    onResult(index: number, result: ValidateLogResult): void {
      const path = entries[index]?.path ?? '-';
      files[index] = result.ok ? result.value : unreadableFileJson(path, result.error, result.readFirst);
      if (!result.ok) errors[index] = result.error;
      flush();
    },
  };
}

function sharedProgress(progress: Progress): () => Progress {
  return () => ({ advance: (bytes) => progress.advance(bytes), done() {} });
}

/** Validates one large file in ranges on worker threads; `null` when it is not split. */
async function validateInRanges(
  path: string,
  options: ValidateOptions,
  io: CliIo,
  progress: Progress,
): Promise<Result<FileReport> | null> {
  let problems: StepFindings = { listed: [], omitted: 0 };
  let warnings: StepFindings = { listed: [], omitted: 0 };
  const setup: ValidateRangeSetup = {
    strict: options.strict,
    dialect: options.dialect === 'auto' ? undefined : options.dialect,
  };
  const read = await readInRanges(path, {
    ...options,
    splitBytes: splitBytesFrom(io.env),
    consumer: commandModuleUrl('validate', 'range-consumer'),
    setup,
    progress: sharedProgress(progress),
    items: async () => undefined,
    result(part) {
      const range = part as ValidateRangeResult;
      problems = joinFindings([problems, range.problems]);
      warnings = joinFindings([warnings, range.warnings]);
    },
  });
  if (read === null || !read.ok) return read;
  const report = validationReport(path, read.value.stats, keptFindings(problems), keptFindings(warnings));
  return { ok: true, value: report };
}

async function validateLocally(
  tasks: readonly ValidateTask[],
  options: ValidateOptions,
  io: CliIo,
  progress: Progress,
  onResult: (index: number, result: ValidateLogResult) => void,
): Promise<void> {
  // One file is worth splitting across the jobs; several files take one job each.
  const only = tasks.length === 1 && options.splitOneFile === true ? tasks[0] : undefined;
  const inRanges = only === undefined ? null : await validateInRanges(only.path, options, io, progress);
  if (only !== undefined && inRanges !== null) {
    onResult(only.index, inRanges);
    return;
  }
  for (const task of tasks) {
    onResult(
      task.index,
      await validateLog(task.path, options, {
        stdin: io.stdin,
        progress: sharedProgress(progress),
        regularFile: task.regularFile,
      }),
    );
  }
}

function crashed(path: string, error: unknown): Result<FileReport> {
  const detail = error instanceof Error ? error.message : String(error);
  return { ok: false, error: cliError('read-failed', `validation failed: ${detail}`, path) };
}

async function validateTasks(
  tasks: readonly ValidateTask[],
  options: ValidateOptions,
  io: CliIo,
  progress: Progress,
  onResult: (index: number, result: ValidateLogResult) => void,
): Promise<void> {
  // Standard input can only be read here, and one file does not pay for starting a worker.
  const inWorkers =
    options.jobs > 1 && tasks.length > 1
      ? tasks.filter((task) => task.path !== '-' && (task.size ?? WORKER_MIN_BYTES) >= WORKER_MIN_BYTES)
      : [];
  const inWorkerSet = new Set(inWorkers);
  const local = tasks.filter((task) => !inWorkerSet.has(task));
  const logOptions: ValidateLogOptions = {
    dialect: options.dialect,
    strict: options.strict,
    ...(options.maxRecordBytes === undefined ? {} : { maxRecordBytes: options.maxRecordBytes }),
  };
  await Promise.all([
    validateLocally(local, options, io, progress, onResult),
    runInWorkers(
      inWorkers.map((task) => task.path),
      {
        jobs: options.jobs,
        runner: commandModuleUrl('validate', 'worker-task'),
        setup: logOptions,
        progress,
        onOutcome: (at, result: ValidateLogResult) => onResult(inWorkers[at]?.index ?? at, result),
        onFailure(at, error) {
          const task = inWorkers[at];
          if (task !== undefined) onResult(task.index, crashed(task.path, error));
        },
      },
    ),
  ]);
}

/**
 * Runs `validate` on files and directories.
 *
 * @returns 0 when no file has a problem, 1 when one has, 2 when a file could not be read.
 */
export async function runValidate(
  paths: readonly string[],
  options: ValidateOptions,
  io: CliIo,
): Promise<ExitCode> {
  if (refusesStdinTwice(paths, io)) return EXIT_USAGE_OR_IO;
  const jobs = jobsFor(io, options.jobs);
  // Sizes send the large logs to workers and make the progress bar's total (drawn only on a terminal).
  const entries = await expandLogPaths(paths, { sizes: jobs > 1 || io.stderr.isTTY === true });
  const printer = createOrderedPrinter(entries, { ...options, jobs }, io);
  const tasks: ValidateTask[] = [];
  entries.forEach((entry, index) => {
    if ('error' in entry) printer.onResult(index, { ok: false, error: entry.error });
    else tasks.push({ index, path: entry.path, size: entry.size, regularFile: entry.regularFile });
  });
  const total = entries.reduce((sum, entry) => sum + ('size' in entry ? (entry.size ?? 0) : 0), 0);
  const progress = progressFor(io, !options.json)(total, plural(tasks.length, 'file'));
  try {
    await validateTasks(tasks, { ...options, jobs }, io, progress, printer.onResult);
  } finally {
    progress.done();
    printer.end();
  }
  const files = printer.files.filter((file) => file !== undefined);
  if (options.json) {
    const document: ValidateJson = { ok: exitCodeOf(files) === EXIT_OK, files };
    await writeText(io.stdout, `${JSON.stringify(document, null, 2)}\n`);
  } else if (files.length > 1) {
    await writeText(io.stdout, `${totalsLine(files, printer.palette)}\n`);
  }
  const code = exitCodeOf(files);
  if (code === EXIT_PROBLEMS) reportProblems(io, files, options.json);
  return code;
}

/** Says on stderr, in one line, why problems make `validate` exit 1: how many, in how many logs, the first. */
function reportProblems(io: CliIo, files: readonly ValidateFileJson[], json: boolean): void {
  const withProblems = files.filter((file) => problemCount(file) > 0);
  const found = {
    count: withProblems.reduce((sum, file) => sum + problemCount(file), 0),
    noun: 'problem',
    logs: withProblems.length,
    firstLog: withProblems[0]?.path ?? '-',
  };
  reportFindings(io, 'validation-problems', found, json ? 'listed in the document' : 'listed above');
}
