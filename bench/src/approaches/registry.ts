/** Every benchmark row, in table order. */

import type { Approach } from './approach.ts';
import { bufferIndexOf, readlineLoop, readOnly, referenceLoop, wholeBufferSplit } from './hand-written.ts';
import { ndjsonParse, split2Parse, streamJsonJsonl, streamparserJson } from './libraries.ts';
import { oursCallback, oursIterable } from './ours.ts';
import { pipeline, pipelineReducer, pipelineWithoutReasoning } from './pipeline.ts';

/** The rows, ours first, then the baselines, then fixed costs. */
export const APPROACHES: readonly Approach[] = [
  oursCallback,
  oursIterable,
  pipeline,
  pipelineReducer,
  pipelineWithoutReasoning,
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
