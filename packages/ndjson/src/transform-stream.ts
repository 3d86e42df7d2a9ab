import type { NdjsonStreamOptions } from './iterate.ts';
import { createNdjsonTokenizer } from './tokenizer.ts';
import type { NdjsonChunk, NdjsonItem, NdjsonTokenizer } from './types.ts';

/**
 * A WHATWG `TransformStream` from chunks (bytes or text) to records and problems, in input order.
 *
 * @example
 * ```ts
 * const items = (await fetch(url)).body!.pipeThrough(new NdjsonTransformStream());
 * ```
 */
export class NdjsonTransformStream extends TransformStream<NdjsonChunk, NdjsonItem> {
  /** @param options - Limits and the skip callback; see {@link NdjsonStreamOptions}. */
  constructor(options: NdjsonStreamOptions = {}) {
    let tokenizer: NdjsonTokenizer | undefined;
    super({
      start(controller) {
        tokenizer = createNdjsonTokenizer({
          ...options,
          onRecord: (record) => controller.enqueue(record),
          onProblem: (problem) => controller.enqueue(problem),
        });
      },
      transform(chunk) {
        tokenizer?.feed(chunk);
      },
      flush() {
        tokenizer?.end();
      },
    });
  }
}
