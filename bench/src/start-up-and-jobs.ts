/**
 * The two fixed costs of the commands, measured as users meet them: start-up (a command on the README's small
 * recording, against a bare `node` starting an empty script) and the speed-up of two jobs over one on a large file.
 * Each run is a whole fresh process; runs are interleaved, and medians and paired ratios are reported.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_BIN } from '@cursor-stream/test-kit/run-cli';
import { median } from 'cursor-stream/measurement';
import { readThrough } from './page-cache.ts';
import { settledLoad } from './settle.ts';
import { displayPath } from './spawn-run.ts';
import type { Log } from './throughput.ts';
import { runWholeProcess } from './whole-process.ts';

/** The recording the README's first command reads: a command's start-up is measured on it. */
export const START_UP_LOG = 'corpus/official/docs-example-zh.ndjson';

/** The most a command's start-up may take, as a multiple of a bare `node`'s. */
export const START_UP_TARGET = 1.5;
/** The least two jobs must gain over one on a large file. */
export const TWO_JOBS_TARGET = 1.7;

/** One timed row: the median of its whole-process runs, and the 1-minute load around them. */
export interface TimedRow {
  label: string;
  medianMs: number;
  /** The multiple the row is judged by: a command's time over a bare node's, or one job's time over two jobs'. */
  ratio: number;
  /** The median of the same multiple taken round by round. */
  pairedRatio: number;
  exitCodes: (number | null)[];
  loadMin: number;
  loadMax: number;
}

/** Start-up: a bare node, then each command, on the small recording. */
export interface StartUpReport {
  runs: number;
  bareNodeMs: number;
  /** Each command as users run it again and again: from the code cache its first run wrote. */
  rows: TimedRow[];
  /** A command's first run, which compiles the bundle and writes its code cache: not judged by the target. */
  firstRun: TimedRow;
  /** The highest 1-minute load seen before or after any run. */
  loadMax: number;
}

/** Two jobs against one, per command, on one large file. */
export interface TwoJobsReport {
  file: string;
  bytes: number;
  runs: number;
  rows: TimedRow[];
  /**
   * The 1-minute load as the measurement started. Two jobs keep both cores busy by design, and the load they cause
   * stays in the average for minutes, so only the load before the first run says whether the machine was quiet.
   */
  loadAtStart: number;
}

interface Timed {
  ms: number;
  code: number | null;
  loadBefore: number;
  loadAfter: number;
}

async function timed(
  script: string,
  args: readonly string[],
  input: string | undefined,
  env: Readonly<Record<string, string>> = {},
): Promise<Timed> {
  const loadBefore = await settledLoad();
  if (input !== undefined) readThrough(input);
  const run = await runWholeProcess(script, args, [], 'dev-null', env);
  return { ms: run.ms, code: run.code, loadBefore, loadAfter: loadavg()[0] ?? Number.NaN };
}

/** The commands whose start-up is measured, as a user types them. */
const START_UP_COMMANDS: readonly (readonly string[])[] = [
  ['--version'],
  ['summary', START_UP_LOG],
  ['render', START_UP_LOG],
  ['validate', START_UP_LOG],
];

/** The command whose first run is timed. */
const FIRST_RUN_COMMAND = ['summary', START_UP_LOG] as const;

/**
 * Times a bare node and each command of {@link START_UP_COMMANDS} `runs` times, interleaved, with a code cache of
 * the bench's own (written by each command's first round); and the first run of {@link FIRST_RUN_COMMAND}, each
 * round with a new, empty cache.
 */
export async function measureStartUp(runs: number, log: Log): Promise<StartUpReport> {
  const directory = await mkdtemp(join(tmpdir(), 'cursor-stream-start-up-'));
  const empty = join(directory, 'empty.mjs');
  await writeFile(empty, '');
  const cache = { NODE_COMPILE_CACHE: join(directory, 'code-cache') };
  const bare: Timed[] = [];
  const commands = START_UP_COMMANDS.map(() => [] as Timed[]);
  const firstRuns: Timed[] = [];
  try {
    for (let round = 0; round < runs; round++) {
      bare.push(await timed(empty, [], START_UP_LOG));
      for (const [index, args] of START_UP_COMMANDS.entries())
        commands[index]?.push(await timed(CLI_BIN, args, START_UP_LOG, cache));
      const firstRunCache = { NODE_COMPILE_CACHE: join(directory, `first-run-${round}`) };
      firstRuns.push(await timed(CLI_BIN, FIRST_RUN_COMMAND, START_UP_LOG, firstRunCache));
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  const bareNodeMs = median(bare.map((run) => run.ms));
  /** A row timed against the bare node, logged as it is made. */
  const startUpRow = (label: string, own: readonly Timed[]): TimedRow => {
    const row = timedRow(label, own, bare, (ms, base) => ms / base);
    log(`start-up: ${row.label}: ${row.medianMs.toFixed(0)} ms, ${row.ratio.toFixed(2)}x a bare node`);
    return row;
  };
  const rows = START_UP_COMMANDS.map((args, index) =>
    startUpRow(`cursor-stream ${args.join(' ')}`, commands[index] ?? []),
  );
  const firstRun = startUpRow(`cursor-stream ${FIRST_RUN_COMMAND.join(' ')}, first run`, firstRuns);
  const loads = [...bare, ...commands.flat(), ...firstRuns].flatMap((run) => [run.loadBefore, run.loadAfter]);
  return { runs, bareNodeMs, rows, firstRun, loadMax: Math.max(...loads) };
}

/** The commands timed on one job and on two. */
const TWO_JOBS_COMMANDS: readonly (readonly string[])[] = [['summary', '--json'], ['validate']];

/** Times each command of {@link TWO_JOBS_COMMANDS} on one job and on two, `runs` times, interleaved, on `file`. */
export async function measureTwoJobs(
  file: string,
  bytes: number,
  runs: number,
  log: Log,
): Promise<TwoJobsReport> {
  const loadAtStart = await settledLoad();
  const one = TWO_JOBS_COMMANDS.map(() => [] as Timed[]);
  const two = TWO_JOBS_COMMANDS.map(() => [] as Timed[]);
  for (let round = 0; round < runs; round++) {
    for (const [index, args] of TWO_JOBS_COMMANDS.entries()) {
      // The order alternates so that neither always runs on a machine the other just warmed.
      const order = round % 2 === 0 ? [1, 2] : [2, 1];
      for (const jobs of order) {
        const run = await timed(CLI_BIN, [...args, '--jobs', String(jobs), file], file);
        (jobs === 1 ? one : two)[index]?.push(run);
        log(`two jobs: round ${round + 1}/${runs} ${args.join(' ')} --jobs ${jobs}: ${run.ms.toFixed(0)} ms`);
      }
    }
  }
  const rows = TWO_JOBS_COMMANDS.map((args, index) =>
    timedRow(
      `cursor-stream ${args.join(' ')} --jobs 2`,
      two[index] ?? [],
      one[index] ?? [],
      (own, base) => base / own,
    ),
  );
  return { file: displayPath(file), bytes, runs, rows, loadAtStart };
}

function timedRow(
  label: string,
  runs: readonly Timed[],
  base: readonly Timed[],
  multiple: (own: number, base: number) => number,
): TimedRow {
  const medianMs = median(runs.map((run) => run.ms));
  const loads = runs.flatMap((run) => [run.loadBefore, run.loadAfter]);
  return {
    label,
    medianMs,
    ratio: multiple(medianMs, median(base.map((run) => run.ms))),
    // The i-th runs of two rows share a round.
    pairedRatio: median(runs.map((run, i) => multiple(run.ms, base[i]?.ms ?? Number.NaN))),
    exitCodes: [...new Set(runs.map((run) => run.code))],
    loadMin: Math.min(...loads),
    loadMax: Math.max(...loads),
  };
}

/** The rows of a fixed cost's table, each judged met or not by `met`; `multiple` heads the ratio columns. */
function timedTable(rows: readonly TimedRow[], multiple: string, met: (ratio: number) => boolean): string[] {
  return [
    `| command | median ms | x ${multiple} | paired x | target | exit | 1-min load |`,
    '|---|---:|---:|---:|---|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.label} | ${row.medianMs.toFixed(0)} | ${row.ratio.toFixed(2)}x | ${row.pairedRatio.toFixed(2)}x | ` +
        `${met(row.ratio) ? 'met' : 'not met'} | ${row.exitCodes.join(', ')} | ` +
        `${row.loadMin.toFixed(2)}-${row.loadMax.toFixed(2)} |`,
    ),
  ];
}

/** The start-up table as Markdown. */
export function formatStartUp(report: StartUpReport): string {
  const { firstRun } = report;
  return `${[
    `Start-up: each command on \`${START_UP_LOG}\` (${report.runs} interleaved runs), against a bare \`node\` starting ` +
      `an empty script (${report.bareNodeMs.toFixed(0)} ms); target at most ${START_UP_TARGET}x. Each command runs from ` +
      'the code cache its first run wrote, as it does for a user from the second run on.',
    '',
    ...timedTable(report.rows, 'bare node', (ratio) => ratio <= START_UP_TARGET),
    '',
    `A first run, with no code cache yet (it compiles the bundle and writes the cache), is not judged by the target: ` +
      `\`${firstRun.label}\` ${firstRun.medianMs.toFixed(0)} ms, ${firstRun.ratio.toFixed(2)}x a bare node ` +
      `(paired ${firstRun.pairedRatio.toFixed(2)}x), 1-minute load ${firstRun.loadMin.toFixed(2)}-${firstRun.loadMax.toFixed(2)}.`,
  ].join('\n')}\n`;
}

/** The two-jobs table as Markdown. */
export function formatTwoJobs(report: TwoJobsReport): string {
  return `${[
    `Two jobs: \`${report.file}\` (${(report.bytes / 1e6).toFixed(0)} MB), each command on \`--jobs 1\` and ` +
      `\`--jobs 2\`, ${report.runs} interleaved runs; x = one job's median time / two jobs'; target at least ` +
      `${TWO_JOBS_TARGET}x. Two jobs use both cores by design: the load that says whether the machine was quiet is the one before ` +
      `the first run (${report.loadAtStart.toFixed(2)}).`,
    '',
    ...timedTable(report.rows, 'one job', (ratio) => ratio >= TWO_JOBS_TARGET),
  ].join('\n')}\n`;
}
