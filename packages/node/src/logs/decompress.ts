/** On-the-fly gzip decompression of a log's chunks, recognised by the `.gz` name or the gzip magic number. */

import type { GzipTrailingProblem } from './gunzip-members.ts';
import { startsLikeGzip } from './text-sniff.ts';

/** Whether a path names a gzip file. */
export function hasGzipExtension(path: string): boolean {
  return path.toLowerCase().endsWith('.gz');
}

async function* prepend(first: Uint8Array, rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield first;
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await rest.return?.();
  }
}

/** Each chunk copied: the gzip reader keeps compressed bytes across reads, and a source may refill its buffer. */
async function* copies(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) yield chunk.slice();
}

/**
 * The log's bytes, decompressed when it is gzip: a `.gz` path, or (so that `zcat`-free pipes work) any input that
 * starts with the gzip magic number. An input that is not gzip at all throws while iterating, with zlib's `code`;
 * a problem after decodable data (trailing garbage, a cut or corrupt member) goes to `onProblem` once all the data
 * before it has been delivered, as `gzip -dc` does. Like the raw chunks, a chunk is valid until the next is asked for.
 */
export async function* decompressedChunks(
  path: string,
  raw: AsyncIterable<Uint8Array>,
  onProblem: (problem: GzipTrailingProblem) => void = () => undefined,
): AsyncGenerator<Uint8Array> {
  const iterator = raw[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const all = prepend(first.value, iterator);
  if (!(hasGzipExtension(path) || startsLikeGzip(first.value))) {
    yield* all;
    return;
  }
  // Loaded here so that plain logs never pay for zlib.
  const { gunzipMembers } = await import('./gunzip-members.ts');
  yield* gunzipMembers(copies(all), onProblem);
}
