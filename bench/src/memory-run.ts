/**
 * The memory run: a 1 GB generated stream through the built CLI's `normalize` to `/dev/null`, under plain `node` (a
 * TypeScript loader would add its own ~70 MB), and the child's peak RSS against the target: under 100 MB plus twice
 * the largest record.
 */

import { createReadStream, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_BIN } from '@cursor-stream/test-kit/run-cli';
import { DEFAULT_CORPUS, DEFAULT_SEED, ensureCorpus, ensureDefaultCorpus } from './corpora.ts';
import { REPOSITORY_ROOT } from './spawn-run.ts';
import type { Log } from './throughput.ts';
import { runWholeProcess } from './whole-process.ts';

/** The stream the memory run reads. */
export const MEMORY_CORPUS = join(REPOSITORY_ROOT, 'corpus/generated/mixed-1gb.ndjson');
const MEMORY_CORPUS_BYTES = 1e9;
export const CLI_BUILT = join(REPOSITORY_ROOT, 'packages/cli/bundle/cli.cjs');
/** The fixed part of the target, MB (10^6 bytes). */
const TARGET_BASE_MB = 100;
/** One run of the CLI on one file. */
export interface MemoryRun {
  /** What the run shows, e.g. `default` or the node flags it adds. */
  label: string;
  file: string;
  bytes: number;
  peakRssMb: number;
  seconds: number;
  mbPerSec: number;
  exitCode: number | null;
}

/** What the memory run measured. */
export interface MemoryReport {
  /** The longest record of the 1 GB stream, terminator included, in bytes. */
  largestRecordBytes: number;
  /** 100 MB plus twice the largest record, MB (10^6 bytes). */
  targetMb: number;
  /** Whether the first run (the 1 GB stream, default settings) stayed under the target. */
  withinTarget: boolean;
  runs: MemoryRun[];
}

/**
 * The runs: the 1 GB stream as a user runs it; the same with a small young generation, which shows how much of the
 * peak is the garbage collector's headroom rather than data held; and the 200 MB stream, to show that the peak
 * does not grow with the input.
 */
const RUNS = [
  { label: 'as installed', file: 'corpus/generated/mixed-1gb.ndjson', flags: [] },
  {
    label: 'young generation left to grow (--max-semi-space-size=16)',
    file: 'corpus/generated/mixed-1gb.ndjson',
    flags: ['--max-semi-space-size=16'],
  },
  { label: 'as installed, 200 MB stream', file: 'corpus/generated/mixed.ndjson', flags: [] },
] as const;

/** The longest line of a file (records of a clean corpus are lines), terminator included. */
export async function largestLineBytes(file: string): Promise<number> {
  let largest = 0;
  let current = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      largest = Math.max(largest, current + end - start + 1);
      current = 0;
      start = end + 1;
    }
    current += chunk.length - start;
  }
  return Math.max(largest, current);
}

/** Runs the built CLI with `args`, its output to `/dev/null`, and reads its resource usage as it exits. */
async function cliToDevNull(
  args: readonly string[],
  flags: readonly string[],
): Promise<{ usage: NodeJS.ResourceUsage; code: number | null; seconds: number }> {
  const { usage, code, ms } = await runWholeProcess(CLI_BIN, args, flags, 'dev-null');
  return { usage, code, seconds: ms / 1000 };
}

async function runOne(run: (typeof RUNS)[number], log: Log): Promise<MemoryRun> {
  log(`memory run (${run.label}): cursor-stream normalize ${run.file} > /dev/null ...`);
  const path = join(REPOSITORY_ROOT, run.file);
  const { usage, code, seconds } = await cliToDevNull(['normalize', path], run.flags);
  const bytes = statSync(path).size;
  const peakRssMb = (usage.maxRSS * 1024) / 1e6;
  return {
    label: run.label,
    file: run.file,
    bytes,
    peakRssMb,
    seconds,
    mbPerSec: bytes / 1e6 / seconds,
    exitCode: code,
  };
}

/**
 * Runs the memory run, generating its corpora on first use.
 *
 * @throws Error when the CLI is not built (`pnpm build`).
 */
export async function runMemory(log: Log): Promise<MemoryReport> {
  if (!existsSync(CLI_BUILT)) throw new Error('the CLI is not built: run `pnpm build` first');
  await ensureCorpus(
    MEMORY_CORPUS,
    { seed: DEFAULT_SEED, targetBytes: MEMORY_CORPUS_BYTES, rawNewlines: 0 },
    log,
  );
  await ensureDefaultCorpus(DEFAULT_CORPUS, 0, log);
  const largestRecordBytes = await largestLineBytes(MEMORY_CORPUS);
  const runs: MemoryRun[] = [];
  for (const run of RUNS) runs.push(await runOne(run, log));
  const targetMb = TARGET_BASE_MB + (2 * largestRecordBytes) / 1e6;
  return { largestRecordBytes, targetMb, withinTarget: (runs[0]?.peakRssMb ?? Number.NaN) < targetMb, runs };
}

/** The memory run as Markdown. */
export function formatMemoryReport(report: MemoryReport): string {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  return `${[
    'Memory run: `cursor-stream normalize FILE > /dev/null`, the built CLI under plain node, as the installed command runs; peak RSS of the process.',
    `Largest record: ${(report.largestRecordBytes / 1e6).toFixed(3)} MB; target: under ${report.targetMb.toFixed(1)} MB ` +
      `(100 MB + 2 x largest record): ${report.withinTarget ? 'met' : 'NOT met'}.`,
    '',
    '| run | input | peak RSS MB | time s | MB/s | exit code |',
    '|---|---:|---:|---:|---:|---:|',
    ...report.runs.map(
      (run) =>
        `| ${run.label} | ${run.file} (${mb(run.bytes)} MB) | ${run.peakRssMb.toFixed(1)} | ${run.seconds.toFixed(1)} | ` +
        `${run.mbPerSec.toFixed(1)} | ${run.exitCode} |`,
    ),
  ].join('\n')}\n`;
}

/** How large the commands' memory rows' logs are. */
export interface CommandMemoryScale {
  /** Ordinary sessions in the gzipped log (about 5 KB each). */
  sessions: number;
  /** Assistant text of the one huge session, bytes. */
  textBytes: number;
}

/** The scale the rows are meant to run at: a million sessions (~5 GB), and 1 GB of text in one session. */
export const FULL_COMMAND_MEMORY_SCALE: CommandMemoryScale = { sessions: 1_000_000, textBytes: 1e9 };

/** One command on one log: its peak RSS. */
export interface CommandMemoryRow {
  command: string;
  input: string;
  /** Bytes of the file as stored (gzipped for the sessions log). */
  fileBytes: number;
  peakRssMb: number;
  seconds: number;
  exitCode: number | null;
}

const COMMANDS = [['validate'], ['summary', '--json'], ['normalize']] as const;

/**
 * The commands' memory rows: `validate`, `summary --json` and `normalize` on a gzipped log of many ordinary
 * sessions and on one session with a huge assistant text, each a fresh process of the built CLI as installed.
 * Memory must not grow with the number of sessions, nor with the text of one.
 */
export async function runCommandMemory(scale: CommandMemoryScale, log: Log): Promise<CommandMemoryRow[]> {
  if (!existsSync(CLI_BUILT)) throw new Error('the CLI is not built: run `pnpm build` first');
  const { ensureHugeTextLog, ensureManySessionsLog } = await import('./memory-logs.ts');
  const sessionsLog = `corpus/generated/sessions-${scale.sessions}.ndjson.gz`;
  const textLog = `corpus/generated/one-session-${scale.textBytes / 1e6}mb-text.ndjson`;
  await ensureManySessionsLog(join(REPOSITORY_ROOT, sessionsLog), scale.sessions, log);
  await ensureHugeTextLog(join(REPOSITORY_ROOT, textLog), scale.textBytes, log);
  const rows: CommandMemoryRow[] = [];
  for (const input of [sessionsLog, textLog]) {
    for (const command of COMMANDS) {
      log(`memory run: cursor-stream ${command.join(' ')} ${input} > /dev/null ...`);
      const path = join(REPOSITORY_ROOT, input);
      const { usage, code, seconds } = await cliToDevNull([...command, path], []);
      rows.push({
        command: command.join(' '),
        input,
        fileBytes: statSync(path).size,
        peakRssMb: (usage.maxRSS * 1024) / 1e6,
        seconds,
        exitCode: code,
      });
    }
  }
  return rows;
}

/** The commands' memory rows as Markdown. */
export function formatCommandMemoryRows(rows: readonly CommandMemoryRow[]): string {
  return `${[
    '| command | input | file MB | peak RSS MB | time s | exit code |',
    '|---|---|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.command} | ${row.input} | ${(row.fileBytes / 1e6).toFixed(1)} | ${row.peakRssMb.toFixed(1)} | ` +
        `${row.seconds.toFixed(1)} | ${row.exitCode} |`,
    ),
  ].join('\n')}\n`;
}
