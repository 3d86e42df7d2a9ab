/** The normalizer as a Node `Transform`, for `pipeline()`s: bytes or text in, canonical events out (object mode). */

import { Transform } from 'node:stream';
import { type CanonicalEvent, createNormalizer, type NormalizerOptions } from '@cursor-stream/core/normalize';

/**
 * Creates a `Transform` whose writable side takes bytes or text (cut anywhere) and whose readable side, in object
 * mode, gives canonical events. Input problems become `invalid-line` events, never stream errors.
 *
 * @example
 * ```ts
 * await pipeline(createReadStream('run.ndjson'), createNormalizerTransform(), async (events) => {
 *   for await (const event of events) console.log(event.type);
 * });
 * ```
 * @throws Error when `options.dialect` names no known dialect, as the normalizer does.
 */
export function createNormalizerTransform(options: NormalizerOptions = {}): Transform {
  const normalizer = createNormalizer(options);
  const pushAll = (stream: Transform, events: readonly CanonicalEvent[]) => {
    for (const event of events) stream.push(event);
  };
  return new Transform({
    readableObjectMode: true,
    // Text stays text: the normalizer decodes bytes itself, so a string need not be re-encoded.
    decodeStrings: false,
    transform(chunk: Uint8Array | string, _encoding, callback) {
      pushAll(this, normalizer.feed(chunk));
      callback();
    },
    flush(callback) {
      pushAll(this, normalizer.end());
      callback();
    },
  });
}
