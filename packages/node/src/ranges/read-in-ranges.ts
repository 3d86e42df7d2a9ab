/**
 * The way in: read one log file in ranges on worker threads when that pays, else say so. Only the plan is made here;
 * the workers and the code that runs them are loaded for a file that is split, so the rest pay nothing for them.
 */

import type { LogResult, LogStats, Progress, ReadingOptions } from '../logs/index.ts';
import { MIN_SPLIT_BYTES, planSplit } from './split-plan.ts';

/** How to read one file in ranges, and who receives what the ranges give. */
export interface ReadInRangesOptions extends ReadingOptions {
  /**
   * The consumer module, loaded by each worker: it exports `createConsumerFactory` (see `CreateConsumerFactory`). A
   * bundler must emit it as a file of its own, where this URL finds it.
   */
  readonly consumer: URL;
  /** What the consumer's factory is made from; copied to each worker, so plain data. */
  readonly setup?: unknown;
  /** Worker threads at most; 1 reads on one thread, so gives `null`. */
  readonly jobs: number;
  /** Files from this size on are split: {@link MIN_SPLIT_BYTES} by default. */
  readonly splitBytes?: number | undefined;
  /** Makes the progress display for a file of `size` bytes. */
  readonly progress?: ((size: number, label: string) => Progress) | undefined;
  /** Receives the consumer's items in file order; awaited, so a slow writer holds the workers back. */
  items(items: readonly unknown[]): Promise<void>;
  /**
   * Receives the consumer's result of each range written, in file order, to fold into its own: results are not kept
   * here, so that their memory does not grow with the number of ranges.
   */
  result(result: unknown): void;
  /** The range worker module: the `range-worker` beside the engine by default. */
  readonly workerUrl?: URL | undefined;
}

/** How the work went: for tests and curious readers. */
export interface RangeCounts {
  /** Ranges the file was planned in. */
  ranges: number;
  /** Runs started, resumes included. */
  runs: number;
  /** Runs whose output was written: the cuts accepted, plus one. */
  written: number;
  /** Ranges read again because a tool call crossed into them. */
  resumed: number;
}

/** What reading in ranges found: one thread's stats, and how the work went. */
export interface RangeRead {
  stats: LogStats;
  counts: RangeCounts;
}

/**
 * Reads a log file in ranges on worker threads, each range's events going through the consumer module on its worker,
 * or returns `null` when the file is read on one thread instead: standard input, pipes, gzip, a single job, a file
 * below the split size, and files the plan finds no cut in. The items come out exactly as one thread reading the
 * whole file with the same consumer makes them.
 *
 * @returns What one thread's reading would have found, or the error that stopped it; `null` when not split.
 */
export async function readInRanges(
  path: string,
  options: ReadInRangesOptions,
): Promise<LogResult<RangeRead> | null> {
  const dialect = options.dialect ?? 'auto';
  const plan = planSplit(path, {
    jobs: options.jobs,
    dialect,
    maxRecordBytes: options.maxRecordBytes,
    splitBytes: options.splitBytes ?? MIN_SPLIT_BYTES,
  });
  if (plan === null) return null;
  // Loaded only for a split file: worker threads are no cost for the rest.
  const { readPlanned } = await import('./range-scheduler.ts');
  const progress = options.progress?.(plan.size, path);
  try {
    return await readPlanned(plan, {
      jobs: options.jobs,
      consumer: options.consumer,
      setup: options.setup,
      dialect,
      maxRecordBytes: options.maxRecordBytes,
      progress: progress ?? { advance() {}, done() {} },
      items: options.items,
      result: options.result,
      workerUrl: options.workerUrl,
    });
  } finally {
    progress?.done();
  }
}
