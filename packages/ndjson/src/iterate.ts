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
  // Some browsers' ReadableStream is not async-iterable yet, so read it through its reader.
  if (!(Symbol.asyncIterator in source) && source instanceof ReadableStream) {
    const reader = (source as ReadableStream<NdjsonChunk>).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }
  yield* source as AsyncIterable<NdjsonChunk> | Iterable<NdjsonChunk>;
}
