/** The held-line buffer: the bytes of a line over several chunks, in order, whatever the pieces, in one reused buffer. */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createHeldLine } from '../src/held-line.ts';

describe('createHeldLine', () => {
  test.prop([fc.array(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 6 }), { maxLength: 5 })])(
    'gives back each line as its pieces joined, line after line, though the caller refills its buffer',
    (lines) => {
      const held = createHeldLine(512);
      const scratch = new Uint8Array(300);
      for (const pieces of lines) {
        const [last = new Uint8Array(0), ...before] = [...pieces].reverse();
        for (const piece of before.reverse()) {
          scratch.set(piece);
          held.append(scratch.subarray(0, piece.length));
          scratch.fill(0xff);
        }
        expect(held.heldBytes()).toBe(before.reduce((sum, piece) => sum + piece.length, 0));
        expect([...held.take(last)]).toEqual(pieces.flatMap((piece) => [...piece]));
        expect(held.heldBytes()).toBe(0);
      }
    },
  );

  it('reuses its buffer for the next line, and lets one larger than the bound go', () => {
    const held = createHeldLine(200 * 1024);
    held.append(new Uint8Array(100 * 1024).fill(1));
    const first = held.take(new Uint8Array([2]));
    held.append(new Uint8Array(10).fill(3));
    const second = held.take(new Uint8Array(0));
    expect(second.buffer).toBe(first.buffer);
    expect([...second]).toEqual(new Array(10).fill(3));
    held.append(new Uint8Array(300 * 1024));
    const large = held.take(new Uint8Array(0));
    held.append(new Uint8Array([4]));
    expect(held.take(new Uint8Array(0)).buffer).not.toBe(large.buffer);
  });

  it('holds a short piece in a short buffer, and grows it by doubling', () => {
    // The unterminated end of each small log is held: a buffer the size of a read chunk for each cost more than the log.
    const held = createHeldLine();
    held.append(new Uint8Array(10));
    const short = held.take(new Uint8Array(1));
    expect(short.buffer.byteLength).toBeLessThanOrEqual(1024);
    for (let piece = 0; piece < 10; piece++) held.append(new Uint8Array(1000));
    const grown = held.take(new Uint8Array(0));
    expect(grown.length).toBe(10_000);
    expect(grown.buffer.byteLength).toBeLessThan(2 * 10_000);
  });
});
