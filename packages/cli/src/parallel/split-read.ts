/** The commands' way in: read one file in ranges on worker threads when that pays, else say so. */

import type { LogResult, Progress } from '@cursor-stream/node/logs';
import type { InputOptions } from '../options.ts';
import type { CommandSetup } from './range-consumer.ts';
import type { RangeRead } from './range-scheduler.ts';
import { planSplit, splitBytesFrom } from './split-plan.ts';

/** How a command reads one file in ranges. */
export interface SplitReadOptions extends InputOptions {
  /** Worker threads at most; 1 reads on one thread. */
  readonly jobs: number;
  readonly command: CommandSetup;
  /** The environment, which may set the size from which files are split. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Makes the progress display for a file of `size` bytes. */
  readonly progress?: ((size: number, label: string) => Progress) | undefined;
  /** Receives the command's items in file order; awaited. */
  items(items: readonly unknown[]): Promise<void>;
  /** Receives the command's result of each range written, in file order. */
  result(result: unknown): void;
}

/**
 * Reads a log file in ranges on worker threads, or returns `null` when it is read on one thread instead: standard
 * input, pipes, gzip, a single job, a file below the split size, and files the plan finds no cut in.
 *
 * @returns What one thread's reading would have found.
 */
export async function readSplit(
  path: string,
  options: SplitReadOptions,
): Promise<LogResult<RangeRead> | null> {
  const plan = planSplit(path, {
    jobs: options.jobs,
    dialect: options.dialect,
    maxRecordBytes: options.maxRecordBytes,
    splitBytes: splitBytesFrom(options.env),
  });
  if (plan === null) return null;
  // Loaded only for a split file: worker threads are no cost for the rest.
  const { readInRanges } = await import('./range-scheduler.ts');
  const progress = options.progress?.(plan.size, path);
  try {
    return await readInRanges(plan, {
      jobs: options.jobs,
      command: options.command,
      dialect: options.dialect,
      maxRecordBytes: options.maxRecordBytes,
      progress: progress ?? { advance() {}, done() {} },
      items: options.items,
      result: options.result,
    });
  } finally {
    progress?.done();
  }
}
