/** Reading a file in ranges in the test's own process, its workers from the bundle: what the range tests share. */

import { type RangeCounts, readInRanges } from '@cursor-stream/node/ranges';

/** The range worker as the CLI ships it: a worker thread runs plain JavaScript. */
const BUNDLED_RANGE_WORKER = new URL('../bundle/range-worker.js', import.meta.url);

/** `normalize`'s range consumer as the CLI ships it. */
const BUNDLED_NORMALIZE_CONSUMER = new URL('../bundle/normalize-range-consumer.js', import.meta.url);

/**
 * `normalize` of a file read in ranges on two workers, cut at every session start, with how the work went; `null`
 * when the file has no cut to make.
 */
export async function normalizeInRanges(path: string): Promise<{ text: string; counts: RangeCounts } | null> {
  const chunks: Uint8Array[] = [];
  const read = await readInRanges(path, {
    jobs: 2,
    splitBytes: 1,
    consumer: BUNDLED_NORMALIZE_CONSUMER,
    workerUrl: BUNDLED_RANGE_WORKER,
    async items(items) {
      for (const item of items) chunks.push(item as Uint8Array);
    },
    result: () => undefined,
  });
  if (read === null) return null;
  if (!read.ok) throw new Error(read.error.message);
  return { text: Buffer.concat(chunks).toString(), counts: read.value.counts };
}
