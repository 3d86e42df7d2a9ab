import { cutAt, cutBySizes } from '@cursor-stream/test-kit/chunking';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';

const input = fc.oneof(fc.string({ unit: 'grapheme' }), fc.uint8Array());

describe('chunking', () => {
  test.prop([input, fc.array(fc.integer())])(
    'cutAt gives one chunk more than it has positions, which joined are the input',
    (whole, positions) => {
      const chunks = cutAt(whole, positions);
      expect(chunks).toHaveLength(positions.length + 1);
      expect(joined(whole, chunks)).toEqual(whole);
    },
  );

  test.prop([input, fc.array(fc.integer())])(
    'cutAt cuts where it is told, whatever the order of the positions',
    (whole, positions) => {
      const span = whole.length + 1;
      const ends = cutAt(whole, positions)
        .slice(0, -1)
        .map((_chunk, index, chunks) =>
          chunks.slice(0, index + 1).reduce((sum, chunk) => sum + chunk.length, 0),
        );
      const expected = positions.map((position) => ((position % span) + span) % span).sort((a, b) => a - b);
      expect(ends).toEqual(expected);
    },
  );

  test.prop([input, fc.array(fc.integer({ min: -2, max: 40 }), { maxLength: 5 })])(
    'cutBySizes gives non-empty pieces of the sizes in turn (below 1 counting as 1), which joined are the input',
    (whole, sizes) => {
      const pieces = cutBySizes(whole, sizes);
      expect(joined(whole, pieces)).toEqual(whole);
      for (const [index, piece] of pieces.entries()) {
        expect(piece.length).toBeGreaterThan(0);
        if (index < pieces.length - 1 && sizes.length > 0)
          expect(piece.length).toBe(Math.max(1, sizes[index % sizes.length] ?? 1));
      }
      if (sizes.length === 0) expect(pieces).toEqual(whole.length === 0 ? [] : [whole]);
    },
  );
});

function joined<T extends Uint8Array | string>(whole: T, chunks: readonly T[]): T {
  if (typeof whole === 'string') return chunks.join('') as T;
  return new Uint8Array(Buffer.concat(chunks as readonly Uint8Array[])) as T;
}
