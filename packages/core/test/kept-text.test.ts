import { createHash } from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, test as it } from 'vitest';
import { createTextKeeper, type TextKeeperOptions } from '../src/sessions/kept-text.ts';
import { createTextDigest } from '../src/sessions/text-digest.ts';

function keep(pieces: readonly string[], head: number, tail: number, options: TextKeeperOptions = {}) {
  const keeper = createTextKeeper({ headLength: head, tailLength: tail, ...options });
  for (const piece of pieces) keeper.append(piece);
  return keeper;
}

function nodeSha256(text: string): string {
  return createHash('sha256').update(Buffer.from(text, 'utf16le')).digest('hex');
}

describe('createTextDigest', () => {
  test.prop([fc.array(fc.string({ unit: 'binary', maxLength: 80 }), { maxLength: 12 })])(
    "equals node:crypto's SHA-256 of the text as UTF-16LE, however it is cut, and goes on after a digest",
    (pieces) => {
      const digest = createTextDigest();
      let whole = '';
      for (const piece of pieces) {
        digest.update(piece);
        whole += piece;
        expect(digest.digest()).toBe(nodeSha256(whole));
      }
      expect(digest.digest()).toBe(nodeSha256(whole));
    },
  );

  it('matches at every padding length around a block', () => {
    // 27 to 33 units cross the point where the length no longer fits the last block.
    for (let units = 0; units <= 70; units++) {
      const text = 'é'.repeat(units);
      const digest = createTextDigest();
      digest.update(text);
      expect(digest.digest(), `${units} units`).toBe(nodeSha256(text));
    }
  });

  it('tells apart texts that UTF-8 would make equal (lone surrogates)', () => {
    const digest = (text: string) => {
      const created = createTextDigest();
      created.update(text);
      return created.digest();
    };
    expect(Buffer.from('\ud800', 'utf8').equals(Buffer.from('\ufffd', 'utf8'))).toBe(true);
    expect(digest('\ud800')).not.toBe(digest('\ufffd'));
  });
});

describe('createTextKeeper', () => {
  test.prop([fc.array(fc.string({ unit: 'binary' }), { maxLength: 20 }), fc.nat(8), fc.nat(8)])(
    'keeps a short text whole and a long one as head and tail, and compares the whole exactly',
    (pieces, head, tail) => {
      const whole = pieces.join('');
      const keeper = keep(pieces, head + 1, tail + 1);
      const kept = keeper.kept();
      expect(kept.length).toBe(whole.length);
      expect(keeper.equals(whole)).toBe(true);
      expect(keeper.equals(`${whole}x`)).toBe(false);
      if (kept.omitted === null) {
        expect(kept.text).toBe(whole);
        return;
      }
      const { at, length } = kept.omitted;
      expect(whole.length).toBeGreaterThan(head + tail + 2);
      expect(kept.text.length + length).toBe(whole.length);
      expect(kept.text.slice(0, at)).toBe(whole.slice(0, at));
      expect(kept.text.slice(at)).toBe(whole.slice(at + length));
      expect(at).toBeLessThanOrEqual(head + 1);
      expect(kept.text.length - at).toBeLessThanOrEqual(tail + 1);
      // A different middle is seen although it is not kept.
      const changed = `${whole.slice(0, at)}${'\u0000'.repeat(length)}${whole.slice(at + length)}`;
      expect(keeper.equals(changed)).toBe(changed === whole);
    },
  );

  test.prop([fc.array(fc.string(), { maxLength: 20 }), fc.nat(8), fc.nat(8)])(
    'what it keeps is the same whenever it is read, and appending goes on after a read',
    (pieces, head, tail) => {
      const read = createTextKeeper({ headLength: head, tailLength: tail });
      for (const piece of pieces) {
        read.append(piece);
        read.kept();
      }
      expect(read.kept()).toEqual(keep(pieces, head, tail).kept());
    },
  );

  it('does not split a surrogate pair at either cut', () => {
    const cutInPairs = keep(['a😀😀😀😀😀😀b'], 2, 2).kept();
    expect(cutInPairs.text).toBe('ab');
    expect(cutInPairs.omitted).toEqual({ at: 1, length: 12 });
    const cutBetweenPairs = keep(['a😀😀😀😀😀😀b'], 3, 3).kept();
    expect(cutBetweenPairs.text).toBe('a😀😀b');
    expect(cutBetweenPairs.omitted).toEqual({ at: 3, length: 8 });
  });

  it('without a digest, a cut text is compared by its length only, and a whole one as before', () => {
    expect(keep(['abcdef'], 2, 2, { digest: null }).equals('abcdef')).toBeNull();
    expect(keep(['abcdef'], 2, 2, { digest: null }).equals('abcdefg')).toBe(false);
    expect(keep(['abc'], 2, 2, { digest: null }).equals('abc')).toBe(true);
  });

  it('keeps Infinity whole, and a bound that is not a number as its default', () => {
    const long = 'x'.repeat(200_000);
    expect(keep([long], Number.POSITIVE_INFINITY, 0).kept()).toEqual({
      text: long,
      length: long.length,
      omitted: null,
    });
    expect(keep([long], Number.NaN, Number.NaN).kept().omitted).toEqual({
      at: 65_536,
      length: 200_000 - 131_072,
    });
  });
});
