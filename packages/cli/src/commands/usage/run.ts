/** `cursor-stream usage`: tokens and cost of logs per period, session or model, from each session's `result.usage`. */

import { createReadStream } from 'node:fs';
import { type PriceTable, parsePriceTableText } from '@cursor-stream/core/cost';
import { type FactsTracker, type SessionFacts, trackSessionFacts } from '@cursor-stream/core/sessions';
import { jsonPath } from '@cursor-stream/core/text';
import { foreignLogsFields } from '@cursor-stream/inspect/foreign-logs';
import { createPalette, shouldUseColor } from '@cursor-stream/inspect/terminal';
import {
  createUsageOutput,
  resolveUsageOptions,
  USAGE_FACTS,
  type UsageOptions,
  type UsageRequest,
} from '@cursor-stream/inspect/usage';
import {
  ioError,
  type LogResult,
  type LogSessionsOptions,
  type RangeSessionsOutcome,
  visitLogSessions,
} from '@cursor-stream/node/logs';
import { readInRanges } from '@cursor-stream/node/ranges';
import { commandModuleUrl } from '../../command-modules.ts';
import { cliError, type Result } from '../../io/cli-error.ts';
import {
  type CliIo,
  jobsFor,
  logsExitCode,
  progressFor,
  refusesStdinTwice,
  reportError,
  splitBytesFrom,
  type WriteText,
  writeText,
} from '../../io/cli-io.ts';
import { EXIT_USAGE_OR_IO, type ExitCode } from '../../io/exit-codes.ts';
import type { InputOptions } from '../../io/options.ts';
import { createValueProblemList, type LogsOutcome, withValueProblems } from '../../io/value-problems.ts';
import type { UsageRangeResult, UsageRangeSetup } from './range-consumer.ts';

/** Options of `usage`. */
export interface UsageCommandOptions extends InputOptions, Omit<UsageRequest, 'prices' | 'palette'> {
  /** A price table file to compute costs with instead of the built-in one. */
  prices?: string;
  /** Worker threads a large file may be read on. */
  jobs: number;
}

/**
 * Reads one large log in ranges on worker threads, its sessions' facts handed on in order; `undefined` on one job,
 * where no log is split, so that a folder of small logs pays nothing per log for asking.
 */
function rangeReader(options: UsageCommandOptions, io: CliIo, jobs: number) {
  if (jobs < 2) return undefined;
  const splitBytes = splitBytesFrom(io.env);
  const consumer = commandModuleUrl('usage', 'range-consumer');
  const progress = progressFor(io, false);
  return async (
    path: string,
    whole: (facts: SessionFacts) => Promise<void>,
  ): Promise<LogResult<RangeSessionsOutcome> | null> => {
    let eventsOutsideSessions = 0;
    const setup: UsageRangeSetup = { file: jsonPath(path) };
    const read = await readInRanges(path, {
      ...options,
      jobs,
      splitBytes,
      consumer,
      setup,
      progress,
      async items(sessions) {
        for (const facts of sessions) await whole(facts as SessionFacts);
      },
      result(part) {
        eventsOutsideSessions += (part as UsageRangeResult).eventsOutsideSessions;
      },
    });
    if (read === null || !read.ok) return read;
    const { invalidLines, inputProblems } = read.value.stats;
    return { ok: true, value: { invalidLines, eventsOutsideSessions, inputProblems } };
  };
}

/**
 * Reads the logs session by session and writes their token usage grouped as `options.by` asks: rows of
 * `--by session` as each session ends, the rest at the end.
 *
 * @returns What reading came to: unreadable arguments and invalid lines are for the caller to report.
 */
export async function writeUsage(
  paths: readonly string[],
  options: UsageOptions & LogSessionsOptions<SessionFacts>,
  write: WriteText,
): Promise<LogsOutcome> {
  const output = createUsageOutput(options);
  const problems = createValueProblemList();
  let sessions = 0;
  const add = async (facts: SessionFacts): Promise<void> => {
    sessions += 1;
    problems.add(facts);
    const row = output.add(facts);
    if (row !== '') await write(row);
  };
  let tracker: FactsTracker | undefined;
  const outcome = await visitLogSessions(
    paths,
    { ...options, foreignLogs: 'leave-out' },
    {
      start(path) {
        tracker = trackSessionFacts(jsonPath(path), USAGE_FACTS);
      },
      event(event, times) {
        tracker?.push(event, times);
      },
      async end() {
        const facts = tracker?.facts();
        if (facts !== undefined) await add(facts);
        tracker = undefined;
      },
      whole: add,
    },
  );
  // A table of zeros over nothing read would read as runs that used nothing; the errors say why there is none.
  const nothingRead = outcome.files === 0 && sessions === 0 && outcome.errors.length > 0;
  if (options.json || !nothingRead) await write(output.end(foreignLogsFields(outcome.inputProblems)));
  return withValueProblems(outcome, problems);
}

/**
 * Runs `usage` on logs and directories of logs.
 *
 * @returns 0, 1 when a log had invalid lines, 2 when an argument could not be read.
 */
export async function runUsage(
  paths: readonly string[],
  options: UsageCommandOptions,
  io: CliIo,
): Promise<ExitCode> {
  if (refusesStdinTwice(paths, io)) return EXIT_USAGE_OR_IO;
  const usageOptions = await usageOptionsOf(options, io);
  if (!usageOptions.ok) {
    reportError(io, usageOptions.error);
    return EXIT_USAGE_OR_IO;
  }
  const jobs = jobsFor(io, options.jobs);
  const { dialect, maxRecordBytes } = options;
  const inRanges = rangeReader(options, io, jobs);
  const outcome = await writeUsage(
    paths,
    {
      dialect,
      ...(maxRecordBytes === undefined ? {} : { maxRecordBytes }),
      ...usageOptions.value,
      stdin: io.stdin,
      progress: progressFor(io, false),
      ...(inRanges === undefined ? {} : { inRanges }),
    },
    (text) => writeText(io.stdout, text),
  );
  return logsExitCode(io, outcome, 'not counted (cursor-stream validate lists them)');
}

/**
 * The most of a price table read: the bundled table is some 20 KiB, so a file past this is not one, and reading
 * `/dev/urandom` or a runaway pipe must end.
 */
const MAX_PRICE_TABLE_BYTES = 4 * 1024 * 1024;

/** The price table's text, or why it could not be read; a file or a pipe (`--prices <(curl …)`) alike. */
async function readPriceTableText(path: string): Promise<Result<string>> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      if (size > MAX_PRICE_TABLE_BYTES)
        return {
          ok: false,
          error: cliError(
            'invalid-value',
            `a price table is at most ${MAX_PRICE_TABLE_BYTES / 1024 / 1024} MiB`,
            path,
          ),
        };
      chunks.push(bytes);
    }
  } catch (error) {
    return { ok: false, error: ioError(path, error) };
  }
  return { ok: true, value: Buffer.concat(chunks).toString('utf8') };
}

async function readPriceTable(path: string): Promise<Result<PriceTable>> {
  const read = await readPriceTableText(path);
  if (!read.ok) return read;
  const text = read.value;
  const table = parsePriceTableText(text);
  return table.ok ? table : { ok: false, error: cliError('invalid-value', table.error.message, path) };
}

/** The view's options from the command line's: the price table read, the zone and range checked, the colors. */
async function usageOptionsOf(options: UsageCommandOptions, io: CliIo): Promise<Result<UsageOptions>> {
  const prices = options.prices === undefined ? undefined : await readPriceTable(options.prices);
  if (prices !== undefined && !prices.ok) return prices;
  const { by, json, timeZone, since, until, order } = options;
  const resolved = resolveUsageOptions({
    by,
    json,
    ...(timeZone === undefined ? {} : { timeZone }),
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
    ...(order === undefined ? {} : { order }),
    ...(prices === undefined ? {} : { prices: prices.value }),
    palette: createPalette(shouldUseColor({ isTTY: io.stdout.isTTY, env: io.env })),
  });
  return resolved.ok ? resolved : { ok: false, error: cliError('invalid-value', resolved.error.message) };
}
