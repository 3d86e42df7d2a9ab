/** `cursor-stream usage`: token totals of logs per day, session or model, from each session's `result.usage`. */

import type { SessionFacts } from '@cursor-stream/core/sessions';
import type { LogResult, RangeSessionsOutcome } from '@cursor-stream/node/logs';
import { readInRanges } from '@cursor-stream/node/ranges';
import { displayPath } from '../cli-error.ts';
import { type CliIo, jobsFor, logsExitCode, progressFor, splitBytesFrom, writeText } from '../cli-io.ts';
import { commandModuleUrl } from '../command-modules.ts';
import type { ExitCode } from '../exit-codes.ts';
import type { InputOptions } from '../options.ts';
import { type UsageGrouping, writeUsage } from '../report/index.ts';
import type { UsageRangeResult, UsageRangeSetup } from './usage/range-consumer.ts';

/** Options of `usage`. */
export interface UsageCommandOptions extends InputOptions {
  by: UsageGrouping;
  json: boolean;
  /** Worker threads a large file may be read on. */
  jobs: number;
}

/** Reads one large log in ranges on worker threads, its sessions' facts handed on in order. */
function rangeReader(options: UsageCommandOptions, io: CliIo, jobs: number) {
  return async (
    path: string,
    whole: (facts: SessionFacts) => Promise<void>,
  ): Promise<LogResult<RangeSessionsOutcome> | null> => {
    let eventsOutsideSessions = 0;
    const setup: UsageRangeSetup = { file: displayPath(path) };
    const read = await readInRanges(path, {
      ...options,
      jobs,
      splitBytes: splitBytesFrom(io.env),
      consumer: commandModuleUrl('usage', 'range-consumer'),
      setup,
      progress: progressFor(io, false),
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
 * Runs `usage` on logs and directories of logs.
 *
 * @returns 0, 1 when a log had invalid lines, 2 when an argument could not be read.
 */
export async function runUsage(
  paths: readonly string[],
  options: UsageCommandOptions,
  io: CliIo,
): Promise<ExitCode> {
  const jobs = jobsFor(io, options.jobs);
  const outcome = await writeUsage(
    paths,
    {
      ...options,
      stdin: io.stdin,
      progress: progressFor(io, false),
      inRanges: rangeReader(options, io, jobs),
    },
    (text) => writeText(io.stdout, text),
  );
  return logsExitCode(io, outcome, 'not counted (cursor-stream validate lists them)');
}
