/**
 * The young generation grows only until a long line comes: whatever the chunking, a line of `LONG_LINE_BYTES` holds
 * it by the chunk that completes that many of its bytes, and shorter lines never do.
 */

import { setFlagsFromString } from 'node:v8';
import {
  allowYoungGenerationGrowth,
  holdYoungGeneration,
  LONG_LINE_BYTES,
  watchLineLengths,
  youngGenerationGrowing,
} from '@cursor-stream/node/young-generation';
import { fc, test as propTest } from '@fast-check/vitest';
import { afterAll, describe, expect, it } from 'vitest';

afterAll(() => {
  holdYoungGeneration();
  // V8's own factor: this test process goes on as it started.
  setFlagsFromString('--semi-space-growth-factor=2');
});

/** A log of lines of these lengths (line feeds not counted), cut at `cuts` (sorted offsets). */
function chunksOf(lengths: readonly number[], cuts: readonly number[]): Uint8Array[] {
  const bytes = new Uint8Array(lengths.reduce((total, length) => total + length + 1, 0)).fill(0x61);
  let at = 0;
  for (const length of lengths) {
    at += length;
    bytes[at] = 0x0a;
    at += 1;
  }
  const ends = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const end of [...ends, bytes.length]) {
    chunks.push(bytes.subarray(from, end));
    from = end;
  }
  return chunks;
}

/** Whether the young generation was held once every chunk was watched. */
function heldAfter(chunks: readonly Uint8Array[]): boolean {
  allowYoungGenerationGrowth();
  const watch = watchLineLengths();
  for (const chunk of chunks) watch(chunk);
  const held = !youngGenerationGrowing();
  holdYoungGeneration();
  return held;
}

describe('the young generation', () => {
  it('grows until held, and a line of just under the bound in one chunk leaves it growing', () => {
    allowYoungGenerationGrowth();
    expect(youngGenerationGrowing()).toBe(true);
    holdYoungGeneration();
    expect(youngGenerationGrowing()).toBe(false);
    expect(heldAfter(chunksOf([LONG_LINE_BYTES - 1, 10], []))).toBe(false);
    expect(heldAfter(chunksOf([10, LONG_LINE_BYTES, 10], []))).toBe(true);
  });

  propTest.prop(
    [
      fc.array(fc.oneof(fc.nat(300), fc.integer({ min: LONG_LINE_BYTES - 2, max: LONG_LINE_BYTES + 2 })), {
        maxLength: 6,
      }),
      fc.array(fc.nat(), { maxLength: 12 }),
      fc.boolean(),
    ],
    { numRuns: 200 },
  )('is held exactly when some line is long, however the log is cut', (lengths, cuts, openAtEnd) => {
    const chunks = chunksOf(lengths, cuts);
    const last = chunks.at(-1);
    // A log whose last line has no line feed: its bytes count as they come.
    if (openAtEnd && last !== undefined && last.length > 0) chunks[chunks.length - 1] = last.subarray(0, -1);
    const longest = Math.max(0, ...lengths);
    expect(heldAfter(chunks)).toBe(longest >= LONG_LINE_BYTES);
  });
});
