/** On-the-fly gzip decompression of a log's chunks, recognised by the `.gz` name or the gzip magic number. */

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

async function* gunzip(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  // Loaded here so that plain logs never pay for zlib.
  const [{ createGunzip }, { Readable, pipeline }] = await Promise.all([
    import('node:zlib'),
    import('node:stream'),
  ]);
  const output = pipeline(Readable.from(source), createGunzip(), () => undefined);
  yield* output;
}

/**
 * The log's bytes, decompressed when it is gzip: a `.gz` path, or (so that `zcat`-free pipes work) any input that
 * starts with the gzip magic number. Errors in the gzip data are thrown while iterating, with zlib's `code`.
 */
export async function* decompressedChunks(
  path: string,
  raw: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const iterator = raw[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const all = prepend(first.value, iterator);
  yield* hasGzipExtension(path) || startsLikeGzip(first.value) ? gunzip(all) : all;
}
