/**
 * The timed part: every row in a fresh process per run, rounds interleaved with the order rotated each round, so
 * that drift of a shared machine spreads over all rows instead of landing on one.
 */

import { median } from 'cursor-stream/measurement';
import type { Approach } from './approaches/approach.ts';
import { REFERENCE_LOOP_NAME } from './approaches/plain-loops.ts';
import type { RunResult } from './run-once.ts';
import { spawnRun } from './spawn-run.ts';

/** One row of the throughput table. */
export interface ThroughputRow {
  name: string;
  label: string;
  /** Input MB (10^6 bytes) per second, from the median time. */
  mbPerSec: number;
  /** Records per second, from the median time. */
  eventsPerSec: number;
  /** `mbPerSec` over the reference loop's. */
  ratio: number;
  /** Median over rounds of the reference loop's time over this row's time in the same round. */
  pairedRatio: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Median over runs of the process's peak RSS, MB (10^6 bytes). */
  peakRssMb: number;
  records: number;
  problems: number;
  /** Why the row stopped before the end, if it did in any run. */
  stopped?: string;
}

/** Progress lines go here (stderr by default). */
export type Log = (line: string) => void;

/**
 * Times every row `runs` times on `file`.
 *
 * @returns One row per approach, in the given order.
 */
export async function measureThroughput(
  approaches: readonly Approach[],
  file: string,
  bytes: number,
  runs: number,
  log: Log,
): Promise<ThroughputRow[]> {
  const results = new Map<string, RunResult[]>(approaches.map((approach) => [approach.name, []]));
  for (let round = 0; round < runs; round++) {
    const order = [
      ...approaches.slice(round % approaches.length),
      ...approaches.slice(0, round % approaches.length),
    ];
    for (const approach of order) {
      const result = await spawnRun(approach.name, file, 'file', false);
      results.get(approach.name)?.push(result);
      log(
        `round ${round + 1}/${runs} ${approach.name}: ${result.ms.toFixed(0)} ms, ${result.records} records`,
      );
    }
  }
  const reference = results.get(REFERENCE_LOOP_NAME);
  const referenceMbPerSec =
    reference === undefined ? Number.NaN : mbPerSecOf(bytes, median(reference.map((r) => r.ms)));
  return approaches.map((approach) =>
    rowOf(approach, results.get(approach.name) ?? [], bytes, referenceMbPerSec, reference),
  );
}

function rowOf(
  approach: Approach,
  runs: readonly RunResult[],
  bytes: number,
  referenceMbPerSec: number,
  reference: readonly RunResult[] | undefined,
): ThroughputRow {
  const times = runs.map((run) => run.ms);
  const medianMs = median(times);
  const mbPerSec = mbPerSecOf(bytes, medianMs);
  const records = median(runs.map((run) => run.records));
  // Runs happen in the same round order for every row, so the i-th runs of two rows share a round.
  const paired =
    reference === undefined ? [] : runs.map((run, i) => (reference[i]?.ms ?? Number.NaN) / run.ms);
  const row: ThroughputRow = {
    name: approach.name,
    label: approach.label,
    mbPerSec,
    eventsPerSec: records / (medianMs / 1000),
    ratio: mbPerSec / referenceMbPerSec,
    pairedRatio: median(paired),
    medianMs,
    minMs: Math.min(...times),
    maxMs: Math.max(...times),
    peakRssMb: median(runs.map((run) => run.peakRssMb)),
    records,
    problems: median(runs.map((run) => run.problems)),
  };
  const stopped = runs.find((run) => run.stopped !== undefined)?.stopped;
  if (stopped !== undefined) row.stopped = stopped;
  return row;
}

function mbPerSecOf(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1000);
}
