/** The normalizer as a WHATWG `TransformStream`, for browsers, Deno, Bun and Node's web streams. */

import type { NdjsonChunk } from '@cursor-stream/ndjson';
import { createNormalizer } from '../create-normalizer.ts';
import type { CanonicalEvent } from '../events/index.ts';
import type { NormalizerOptions } from '../normalizer/normalizer-types.ts';

/**
 * A `TransformStream` from chunks (bytes or text, cut anywhere) to canonical events. Input problems become
 * `invalid-line` events, never stream errors.
 *
 * @example
 * ```ts
 * const events = (await fetch('/run.ndjson')).body!.pipeThrough(new NormalizerTransformStream());
 * ```
 */
export class NormalizerTransformStream extends TransformStream<NdjsonChunk, CanonicalEvent> {
  /**
   * @param options - The normalizer's options; see {@link NormalizerOptions}.
   * @throws Error when `options.dialect` names no known dialect, as {@link createNormalizer}.
   */
  constructor(options: NormalizerOptions = {}) {
    const normalizer = createNormalizer(options);
    super({
      transform(chunk, controller) {
        for (const event of normalizer.feed(chunk)) controller.enqueue(event);
      },
      flush(controller) {
        for (const event of normalizer.end()) controller.enqueue(event);
      },
    });
  }
}
