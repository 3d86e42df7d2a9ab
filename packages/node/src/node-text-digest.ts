/** The session reducer's text digest over Node's native SHA-256. */

import { createHash } from 'node:crypto';
import type { TextDigest } from '@cursor-stream/core/normalize';

/**
 * A {@link TextDigest} for the session reducer's `textDigest` option: the same SHA-256 of the text as UTF-16LE that
 * the core computes in plain TypeScript, by `node:crypto`, several times faster.
 *
 * @example
 * ```ts
 * const reducer = createSessionReducer({ textDigest: createNodeTextDigest });
 * ```
 */
export function createNodeTextDigest(): TextDigest {
  const hash = createHash('sha256');
  return {
    update(piece) {
      hash.update(piece, 'utf16le');
    },
    digest: () => hash.copy().digest('hex'),
  };
}
