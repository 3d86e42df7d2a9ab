/**
 * The commands as users run them: `cursor-stream summary --json`, `normalize > /dev/null` and `validate`, on one job
 * and on two, each a whole fresh process of the built CLI as installed, timed from spawn to exit against the same whole-process time of
 * the reference loop and of the libraries people would pick, interleaved, with medians, ratios and peak RSS.
 *
 * The baselines are bundled into plain JavaScript first, so that they start as the CLI's bundle does (no TypeScript
 * loader in either): the plain loops each in a process that holds the loop alone, as a user's script does; the
 * libraries' rows in the benchmark's child runner, with the libraries it compares.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_BIN } from '@cursor-stream/test-kit/run-cli';
import { describeMachine, lastJsonLine, type MachineInfo, median } from 'cursor-stream/measurement';
import { build } from 'esbuild';
import { isPlainLoopName, LINE_DECODING_LOOP_NAME, REFERENCE_LOOP_NAME } from './approaches/plain-loops.ts';
import { readThrough } from './page-cache.ts';
import type { RunResult } from './run-once.ts';
import { settledLoad } from './settle.ts';
import type { Log } from './throughput.ts';
import { peakRssMbOf, runWholeProcess, type StdoutTarget } from './whole-process.ts';

/** A row of the command table: one of the CLI's commands, or a baseline row run as a whole process. */
export type CommandRow =
  | { kind: 'command'; name: string; label: string; args: readonly string[] }
  | { kind: 'baseline'; name: string; label: string; approach: string };

/** A command's rows on one job and on two: `name` and `name-jobs2`, the label with its `--jobs`. */
function onOneAndTwoJobs(name: string, args: readonly string[], redirect = ''): CommandRow[] {
  return [1, 2].map((jobs) => {
    const withJobs = [...args, '--jobs', String(jobs)];
    return {
      kind: 'command',
      name: jobs === 1 ? name : `${name}-jobs${jobs}`,
      label: `cursor-stream ${withJobs.join(' ')}${redirect}`,
      args: withJobs,
    };
  });
}

/**
 * The rows, the commands first; the reference loop is the one ratios are taken against. Each command runs on one job
 * (named, whatever the CLI's default) and on two, which reads a file this large in ranges on two worker
 * threads.
 */
export const COMMAND_ROWS: readonly CommandRow[] = [
  ...onOneAndTwoJobs('cli-summary-json', ['summary', '--json']),
  ...onOneAndTwoJobs('cli-normalize', ['normalize'], ' > /dev/null'),
  ...onOneAndTwoJobs('cli-validate', ['validate']),
  {
    kind: 'baseline',
    name: REFERENCE_LOOP_NAME,
    label: 'reference loop (whole process)',
    approach: REFERENCE_LOOP_NAME,
  },
  {
    kind: 'baseline',
    name: LINE_DECODING_LOOP_NAME,
    label: 'Buffer#indexOf + toString per line + JSON.parse (whole process)',
    approach: LINE_DECODING_LOOP_NAME,
  },
  {
    kind: 'baseline',
    name: 'stream-json-jsonl',
    label: 'stream-json JSONL (whole process)',
    approach: 'stream-json-jsonl',
  },
  { kind: 'baseline', name: 'split2', label: 'split2(JSON.parse) (whole process)', approach: 'split2' },
  {
    kind: 'baseline',
    name: 'readline',
    label: 'readline + JSON.parse (whole process)',
    approach: 'readline',
  },
];

/** The rows of every single-file shape: each command on one job, against the reference loop. */
export const SHAPE_FILE_ROWS: readonly CommandRow[] = [
  ...COMMAND_ROWS.filter((row) => ['cli-summary-json', 'cli-normalize', 'cli-validate'].includes(row.name)),
  ...COMMAND_ROWS.filter((row) => row.name === REFERENCE_LOOP_NAME || row.name === LINE_DECODING_LOOP_NAME),
];

/**
 * The rows of a folder of many logs: the commands people run over all their logs, as they run them, against the
 * reference loop reading the same files one after another.
 */
export const SHAPE_FOLDER_ROWS: readonly CommandRow[] = [
  ...[
    // One job, as the reference loop runs: worker threads would also lift the load the run is judged quiet by.
    ['cli-validate', ['validate', '--jobs', '1']],
    ['cli-usage', ['usage', '--jobs', '1']],
    ['cli-census', ['census']],
    ['cli-summary-json', ['summary', '--json', '--jobs', '1']],
  ].map(
    ([name, args]): CommandRow => ({
      kind: 'command',
      name: name as string,
      label: `cursor-stream ${(args as string[]).join(' ')}`,
      args: args as string[],
    }),
  ),
  ...COMMAND_ROWS.filter((row) => row.name === REFERENCE_LOOP_NAME || row.name === LINE_DECODING_LOOP_NAME),
];

/**
 * Finds command rows by name.
 *
 * @throws RangeError for an unknown name.
 */
export function commandRowsNamed(names: readonly string[]): CommandRow[] {
  return names.map((name) => {
    const row = COMMAND_ROWS.find((candidate) => candidate.name === name);
    if (row === undefined)
      throw new RangeError(
        `unknown command row ${name}; known: ${COMMAND_ROWS.map((r) => r.name).join(', ')}`,
      );
    return row;
  });
}

/** One whole-process run of one row. */
export interface CommandRun {
  ms: number;
  peakRssMb: number;
  exitCode: number | null;
  /** Records the baseline row parsed (from its own report); absent for commands. */
  records?: number;
  /** What a command printed, when kept. */
  stdout?: string;
  /** The 1-minute load average just before the run and just after it. */
  loadBefore?: number;
  loadAfter?: number;
}

/** The baselines' runners, bundled into plain JavaScript; `dispose` removes them. */
export interface BaselineRunner {
  /** The child runner, with every library it compares. */
  script: string;
  /** The plain loops' runner, with nothing else (see `plain-loop-runner.ts`). */
  loopScript: string;
  dispose(): Promise<void>;
}

const CHILD_RUNNER = fileURLToPath(new URL('./child-runner.ts', import.meta.url));
const PLAIN_LOOP_RUNNER = fileURLToPath(new URL('./plain-loop-runner.ts', import.meta.url));
const BENCH_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Bundles `entry` into the plain JavaScript file `outfile`, as the CLI is bundled. */
async function bundleScript(entry: string, outfile: string): Promise<void> {
  await build({
    absWorkingDir: BENCH_ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['@cursor-stream/source'],
    // The libraries are CommonJS; their require() calls need a require in the ES module.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
}

/** Bundles the benchmark's child runner with its libraries, and the plain loops' runner alone. */
export async function bundleBaselineRunner(): Promise<BaselineRunner> {
  const directory = await mkdtemp(join(tmpdir(), 'cursor-stream-bench-runner-'));
  const script = join(directory, 'child-runner.mjs');
  const loopScript = join(directory, 'plain-loop-runner.mjs');
  await Promise.all([bundleScript(CHILD_RUNNER, script), bundleScript(PLAIN_LOOP_RUNNER, loopScript)]);
  return { script, loopScript, dispose: () => rm(directory, { recursive: true, force: true }) };
}

/** Runs one row once on `file` as a whole process. A command's output goes to `/dev/null` unless kept. */
export async function runCommandRow(
  row: CommandRow,
  file: string,
  runner: BaselineRunner,
  stdout: StdoutTarget = 'dev-null',
): Promise<CommandRun> {
  if (row.kind === 'command') {
    const run = await runWholeProcess(CLI_BIN, [...row.args, file], [], stdout);
    const result: CommandRun = { ms: run.ms, peakRssMb: peakRssMbOf(run.usage), exitCode: run.code };
    if (run.stdout !== undefined) result.stdout = run.stdout;
    return result;
  }
  // A plain loop runs in a process of its own, as a user's loop does; a library's, with the others it is compared
  // with. Files are read as a plain loop reads them, as the commands compared read them too.
  const run = isPlainLoopName(row.approach)
    ? await runWholeProcess(runner.loopScript, ['--loop', row.approach, '--file', file], [], 'keep')
    : await runWholeProcess(
        runner.script,
        ['--approach', row.approach, '--file', file, '--read', 'sync'],
        [],
        'keep',
      );
  const value = run.code === 0 ? lastJsonLine(run.stdout ?? '') : undefined;
  if (value === undefined) throw new Error(`${row.name} exited ${run.code} without a result`);
  const result = value as Pick<RunResult, 'records'>;
  return { ms: run.ms, peakRssMb: peakRssMbOf(run.usage), exitCode: run.code, records: result.records };
}

/** One row of the command table. */
export interface CommandTableRow {
  name: string;
  label: string;
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Input MB (10^6 bytes) per second of the whole process, from the median time. */
  mbPerSec: number;
  /** The reference loop's median time over this row's. */
  ratio: number;
  /** Median over rounds of the reference loop's time over this row's in the same round. */
  pairedRatio: number;
  peakRssMb: number;
  /** Exit codes seen, distinct, in order. */
  exitCodes: (number | null)[];
  /** Median records a baseline row parsed; absent for commands. */
  records?: number;
  /** The lowest and highest 1-minute load average seen just before or just after one of its runs. */
  loadMin: number;
  loadMax: number;
}

/** What one command run measured. */
export interface CommandReport {
  machine: MachineInfo;
  /** The 1, 5 and 15 minute load averages as the run started, and as it ended. */
  loadAtStart: number[];
  loadAtEnd: number[];
  file: string;
  bytes: number;
  runs: number;
  rows: CommandTableRow[];
}

/**
 * Times every row `runs` times on `file`, rounds interleaved with the order rotated each round so that drift of a
 * shared machine spreads over all rows.
 *
 * @param settle - Waits before each run and gives the load then: {@link settledLoad} by default. A check of what a
 *   run reports, whose timings nobody reads, reads the load without waiting for a busy machine to quieten.
 */
export async function measureCommands(
  rows: readonly CommandRow[],
  file: string,
  bytes: number,
  runs: number,
  log: Log,
  settle: () => Promise<number> = () => settledLoad(),
): Promise<CommandReport> {
  const loadAtStart = loadavg();
  const runner = await bundleBaselineRunner();
  const results = new Map<string, CommandRun[]>(rows.map((row) => [row.name, []]));
  try {
    for (let round = 0; round < runs; round++) {
      const order = [...rows.slice(round % rows.length), ...rows.slice(0, round % rows.length)];
      for (const row of order) {
        const loadBefore = await settle();
        readThrough(file);
        const run = await runCommandRow(row, file, runner);
        const loadAfter = loadavg()[0] ?? Number.NaN;
        results.get(row.name)?.push({ ...run, loadBefore, loadAfter });
        log(
          `round ${round + 1}/${runs} ${row.name}: ${run.ms.toFixed(0)} ms, exit ${run.exitCode}, ` +
            `load ${loadBefore.toFixed(2)} -> ${loadAfter.toFixed(2)}`,
        );
      }
    }
  } finally {
    await runner.dispose();
  }
  const reference = results.get(REFERENCE_LOOP_NAME) ?? [];
  const referenceMs = median(reference.map((run) => run.ms));
  const table = rows.map((row) =>
    tableRowOf(row, results.get(row.name) ?? [], bytes, referenceMs, reference),
  );
  return { machine: describeMachine(), loadAtStart, loadAtEnd: loadavg(), file, bytes, runs, rows: table };
}

function tableRowOf(
  row: CommandRow,
  runs: readonly CommandRun[],
  bytes: number,
  referenceMs: number,
  reference: readonly CommandRun[],
): CommandTableRow {
  const times = runs.map((run) => run.ms);
  const medianMs = median(times);
  const records = runs.flatMap((run) => (run.records === undefined ? [] : [run.records]));
  const loads = runs.flatMap((run) => [run.loadBefore ?? Number.NaN, run.loadAfter ?? Number.NaN]);
  const tableRow: CommandTableRow = {
    name: row.name,
    label: row.label,
    medianMs,
    minMs: Math.min(...times),
    maxMs: Math.max(...times),
    mbPerSec: bytes / 1e6 / (medianMs / 1000),
    ratio: referenceMs / medianMs,
    // The i-th runs of two rows share a round.
    pairedRatio: median(runs.map((run, i) => (reference[i]?.ms ?? Number.NaN) / run.ms)),
    peakRssMb: median(runs.map((run) => run.peakRssMb)),
    exitCodes: [...new Set(runs.map((run) => run.exitCode))],
    loadMin: Math.min(...loads),
    loadMax: Math.max(...loads),
  };
  if (records.length > 0) tableRow.records = median(records);
  return tableRow;
}

const fixed = (value: number, digits: number): string =>
  Number.isFinite(value) ? value.toFixed(digits) : '-';

/** The command table as Markdown, with the machine and its load at the start. */
export function formatCommandReport(report: CommandReport, heading = ''): string {
  const { machine } = report;
  return `${[
    ...(heading === '' ? [] : [heading]),
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.os}; ` +
      `load average at start ${report.loadAtStart.map((load) => load.toFixed(2)).join(', ')}, ` +
      `at end ${report.loadAtEnd.map((load) => load.toFixed(2)).join(', ')}`,
    `Input: ${report.file} (${fixed(report.bytes / 1e6, 1)} MB); whole processes, spawn to exit, median of ${report.runs} interleaved runs.`,
    '',
    '| row | MB/s | x reference loop | paired x | median ms | min-max ms | peak RSS MB | exit | 1-min load |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.rows.map(
      (row) =>
        `| ${row.label} | ${fixed(row.mbPerSec, 1)} | ${fixed(row.ratio, 2)} | ${fixed(row.pairedRatio, 2)} | ` +
        `${fixed(row.medianMs, 0)} | ${fixed(row.minMs, 0)}-${fixed(row.maxMs, 0)} | ${fixed(row.peakRssMb, 1)} | ` +
        `${row.exitCodes.join(', ')} | ${fixed(row.loadMin, 2)}-${fixed(row.loadMax, 2)} |`,
    ),
  ].join('\n')}\n`;
}
