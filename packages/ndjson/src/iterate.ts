import { createNdjsonTokenizer } from './tokenizer.ts';
import type { NdjsonChunk, NdjsonItem, NdjsonProblem, NdjsonTokenizerOptions } from './types.ts';

/** Options of {@link iterateNdjson} and {@link NdjsonTransformStream}: the tokenizer's, without its item callbacks. */
export type NdjsonStreamOptions = Omit<NdjsonTokenizerOptions, 'onRecord' | 'onProblem'>;

/** Anything that yields chunks: a Node `Readable`, a `fetch` body (`ReadableStream`), an async generator, an array. */
export type NdjsonSource = AsyncIterable<NdjsonChunk> | Iterable<NdjsonChunk> | ReadableStream<NdjsonChunk>;

/**
 * Reads NDJSON from a stream of chunks and yields its records and problems in input order.
 *
 * @example
 * ```ts
 * for await (const item of iterateNdjson(createReadStream('run.ndjson'))) {
 *   if (isNdjsonProblem(item)) console.error(`line ${item.line}: ${item.message}`);
 *   else handle(item.value);
 * }
 * ```
 * @param source - The chunks; see {@link NdjsonSource}.
 * @param options - Limits and the skip callback; see {@link NdjsonStreamOptions}.
 */
export async function* iterateNdjson(
  source: NdjsonSource,
  options: NdjsonStreamOptions = {},
): AsyncGenerator<NdjsonItem> {
  const tokenizer = createNdjsonTokenizer(options);
  for await (const chunk of readChunks(source)) {
    yield* tokenizer.feed(chunk);
  }
  yield* tokenizer.end();
}

/** Whether a tokenizer item is a problem rather than a record. */
export function isNdjsonProblem(item: NdjsonItem): item is NdjsonProblem {
  return 'code' in item;
}

/**
 * The chunks of any {@link NdjsonSource} as one async iterable, for layers that read sources the way
 * {@link iterateNdjson} does.
 */
export async function* readChunks(source: NdjsonSource): AsyncGenerator<NdjsonChunk> {
  // A string is an Iterable of its characters; it is meant as one chunk.
  if (typeof source === 'string') {
    yield source;
    return;
  }
  // Some browsers' ReadableStream is not async-iterable yet, so read it through its reader.
  if (!(Symbol.asyncIterator in source) && source instanceof ReadableStream) {
    const reader = (source as ReadableStream<NdjsonChunk>).getReader();
    let done = false;
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) {
          done = true;
          return;
        }
        yield next.value;
      }
    } finally {
      // A consumer that stops early cancels the stream, as the stream's own async iterator does.
      if (!done) await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  }
  yield* source as AsyncIterable<NdjsonChunk> | Iterable<NdjsonChunk>;
}
