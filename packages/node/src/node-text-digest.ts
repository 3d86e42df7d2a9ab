/** The session reducer's text digest over Node's native SHA-256. */

import type { Hash } from 'node:crypto';
import type { TextDigest } from '@cursor-stream/core/normalize';

/**
 * `node:crypto`, loaded on the first digest: a digest is made only for a text too long to keep whole, and loading the
 * module costs every command's start-up as much as reading a small log.
 */
let createHash: ((algorithm: string) => Hash) | undefined;

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
  createHash ??= process.getBuiltinModule('node:crypto').createHash;
  const hash = createHash('sha256');
  return {
    update(piece) {
      hash.update(piece, 'utf16le');
    },
    digest: () => hash.copy().digest('hex'),
  };
}
