/**
 * What `cursor-stream bench` times on a log: the CLI's own read loop (read, decompress, tokenize, normalize), the same
 * with the session reducer, and the reference loop people write by hand (`TextDecoder({stream:true})`,
 * `String#indexOf('\n')`, `JSON.parse`) over the same decompressed bytes, for the ratio.
 */

import { createSessionReducer } from '@cursor-stream/core/normalize';
import {
  decompressedChunks,
  foreignProblem,
  type LogError,
  openLog,
  readLog,
} from '@cursor-stream/node/logs';
import type { Result } from '../../io/cli-error.ts';
import type { InputOptions } from '../../io/options.ts';
import { referenceLoopOf } from './measurement.ts';

/** The rows, in table order; the last is the one ratios are taken against. */
export const BENCH_ROWS = ['pipeline', 'pipeline-reducer', 'reference-loop'] as const;

/** A row of {@link BENCH_ROWS}. */
export type BenchRowName = (typeof BENCH_ROWS)[number];

/** The row every ratio is taken against. */
export const REFERENCE_ROW: BenchRowName = 'reference-loop';

/** One timed run of one row on one log. */
export interface BenchRun {
  /** Wall time from opening the log to the last event or record. */
  ms: number;
  /** Decompressed bytes read. */
  bytes: number;
  /** Canonical events, or records for the reference loop. */
  events: number;
  /** Invalid lines (pipeline rows) or lines that did not parse (reference loop). */
  invalidLines: number;
  /** Peak resident set size of the process, MB (10^6 bytes). */
  peakRssMb: number;
  /**
   * Set by the pipeline rows when the log is another agent's, or mixes its records in: measured all the same, but
   * it is no Cursor log, and the command says so.
   */
  foreign?: LogError;
}

/** Standard input for reads of files only: empty. */
export const NO_STDIN: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: async function* () {} };

function peakRssMb(): number {
  return (process.resourceUsage().maxRSS * 1024) / 1e6;
}

async function timePipeline(path: string, options: InputOptions, reduce: boolean): Promise<Result<BenchRun>> {
  const reducer = reduce ? createSessionReducer() : undefined;
  const started = performance.now();
  const result = await readLog(path, {
    ...options,
    stdin: NO_STDIN,
    onEvents: (events) => {
      if (reducer !== undefined) for (const event of events) reducer.push(event);
    },
  });
  reducer?.sessions();
  const ms = performance.now() - started;
  if (!result.ok) return result;
  const { bytes, events, invalidLines, foreign } = result.value;
  const run: BenchRun = { ms, bytes, events, invalidLines, peakRssMb: peakRssMb() };
  if (foreign !== null) run.foreign = foreignProblem(foreign, path);
  return { ok: true, value: run };
}

/** Counts records and unparsable lines the way a careful hand-written loop does (blank lines skipped). */
function createLineParser() {
  const counts = { records: 0, bad: 0 };
  const parseLine = (line: string): void => {
    if (line.length === 0 || line === '\r') return;
    try {
      JSON.parse(line);
      counts.records++;
    } catch {
      counts.bad++;
    }
  };
  return { counts, parseLine };
}

async function timeReferenceLoop(path: string): Promise<Result<BenchRun>> {
  const started = performance.now();
  const opened = await openLog(path, { stdin: NO_STDIN });
  if (!opened.ok) return opened;
  const { counts, parseLine } = createLineParser();
  const loop = referenceLoopOf(parseLine);
  let bytes = 0;
  try {
    for await (const chunk of decompressedChunks(path, opened.value.chunks)) {
      bytes += chunk.length;
      loop.chunk(chunk);
    }
  } finally {
    await opened.value.close();
  }
  loop.end();
  const ms = performance.now() - started;
  return {
    ok: true,
    value: { ms, bytes, events: counts.records, invalidLines: counts.bad, peakRssMb: peakRssMb() },
  };
}

/** Runs one row once on a log, in this process. */
export function runBenchRow(
  row: BenchRowName,
  path: string,
  options: InputOptions,
): Promise<Result<BenchRun>> {
  if (row === 'reference-loop') return timeReferenceLoop(path);
  return timePipeline(path, options, row === 'pipeline-reducer');
}

/** Whether a string names a row. */
export function isBenchRowName(name: string): name is BenchRowName {
  return (BENCH_ROWS as readonly string[]).includes(name);
}
