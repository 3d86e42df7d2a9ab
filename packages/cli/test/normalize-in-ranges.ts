/** Reading a file in ranges in the test's own process, its workers from the bundle: what the range tests share. */

import { type RangeCounts, readInRanges } from '../src/parallel/range-scheduler.ts';
import { planSplit } from '../src/parallel/split-plan.ts';
import { NO_PROGRESS } from '../src/progress-bar.ts';
import { BUNDLED_RANGE_WORKER } from './run-cli.ts';

/**
 * `normalize` of a file read in ranges on two workers, cut at every session start, with how the work went; `null`
 * when the file has no cut to make.
 */
export async function normalizeInRanges(path: string): Promise<{ text: string; counts: RangeCounts } | null> {
  const plan = planSplit(path, { jobs: 2, dialect: 'auto', splitBytes: 1 });
  if (plan === null) return null;
  const chunks: Uint8Array[] = [];
  const read = await readInRanges(plan, {
    jobs: 2,
    command: { command: 'normalize' },
    dialect: 'auto',
    progress: NO_PROGRESS,
    workerUrl: BUNDLED_RANGE_WORKER,
    async items(items) {
      for (const item of items) chunks.push(item as Uint8Array);
    },
    result: () => undefined,
  });
  if (!read.ok) throw new Error(read.error.message);
  return { text: Buffer.concat(chunks).toString(), counts: read.value.counts };
}
