import { createTextDigest } from '@cursor-stream/core/sessions';
import { createNodeTextDigest } from '@cursor-stream/node';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';

describe('createNodeTextDigest', () => {
  test.prop([fc.array(fc.string({ unit: 'binary', maxLength: 60 }), { maxLength: 10 })])(
    "gives the core's own digest of the same pieces, and goes on after a digest",
    (pieces) => {
      const native = createNodeTextDigest();
      const pure = createTextDigest();
      for (const piece of pieces) {
        native.update(piece);
        pure.update(piece);
        expect(native.digest()).toBe(pure.digest());
      }
      expect(native.digest()).toBe(pure.digest());
    },
  );
});
