/**
 * Every benchmark row, in table order. The full-pipeline rows (tokenizer + normalizer to canonical events, and the
 * same + the session reducer) join here when the core provides them.
 */

import type { Approach } from './approach.ts';
import { bufferIndexOf, readlineLoop, readOnly, referenceLoop, wholeBufferSplit } from './hand-written.ts';
import { ndjsonParse, split2Parse, streamJsonJsonl, streamparserJson } from './libraries.ts';
import { oursCallback, oursIterable } from './ours.ts';

/** The rows, ours first, then the baselines, then fixed costs. */
export const APPROACHES: readonly Approach[] = [
  oursCallback,
  oursIterable,
  referenceLoop,
  bufferIndexOf,
  wholeBufferSplit,
  readlineLoop,
  split2Parse,
  streamJsonJsonl,
  streamparserJson,
  ndjsonParse,
  readOnly,
];

/**
 * Finds a row by name.
 *
 * @throws RangeError for an unknown name.
 */
export function approachNamed(name: string): Approach {
  const approach = APPROACHES.find((candidate) => candidate.name === name);
  if (approach === undefined) {
    throw new RangeError(`unknown approach ${name}; known: ${APPROACHES.map((a) => a.name).join(', ')}`);
  }
  return approach;
}
