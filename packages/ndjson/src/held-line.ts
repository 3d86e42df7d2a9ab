/**
 * The bytes of a line that began in an earlier chunk, gathered in one buffer that grows as the line does and is
 * reused from line to line. A fresh copy per piece, joined at the line feed, allocates each held byte twice outside
 * V8's heap; V8 frees such buffers only when a collection runs, and a stream of long lines parsed lazily makes few
 * collections, so those copies would pile up to tens of megabytes before one came.
 */

const NO_BYTES = new Uint8Array(0);

/**
 * The least size of a first buffer. Not a read chunk's size: short pieces are held too (the unterminated last line of a
 * small log, or of a string a dialect reads again as records), and zeroing a chunk-sized buffer for each of them
 * cost more than reading the log did.
 */
const FIRST_CAPACITY = 1024;

/**
 * A buffer larger than this is let go once its line is taken, so that one huge line does not keep its memory for the
 * rest of the stream; below it, the buffer stays for the next long line.
 */
export const HELD_LINE_KEEP_BYTES = 4 * 1024 * 1024;

/** A line's bytes held across chunks; see the module comment. */
export interface HeldLine {
  /**
   * Bytes held so far. A method, not a getter: a getter in the object literal below would be a closure of its own,
   * which gives every holder a hidden class of its own; V8 keeps such an object's closures, and all they reach, until
   * a full collection, however soon it is dropped.
   */
  heldBytes(): number;
  /** Copies `piece` after the bytes held (the caller may refill its buffer). */
  append(piece: Uint8Array): void;
  /**
   * The bytes held followed by `lastPiece`, and empties the holder. The result is a view of the reused buffer, valid
   * until the next `append`: a caller that keeps the bytes must copy them.
   */
  take(lastPiece: Uint8Array): Uint8Array;
  /** Drops the bytes held. */
  clear(): void;
}

/** Creates an empty {@link HeldLine}. */
export function createHeldLine(keepBytes = HELD_LINE_KEEP_BYTES): HeldLine {
  let buffer = NO_BYTES;
  let length = 0;

  function reserve(needed: number): void {
    if (needed <= buffer.length) return;
    // Doubling keeps the copies of a line fed in small chunks linear in its length.
    const grown = new Uint8Array(Math.max(needed, buffer.length * 2, FIRST_CAPACITY));
    grown.set(buffer.subarray(0, length));
    buffer = grown;
  }

  function append(piece: Uint8Array): void {
    reserve(length + piece.length);
    buffer.set(piece, length);
    length += piece.length;
  }

  return {
    heldBytes: () => length,
    append,
    take(lastPiece) {
      if (length === 0) return lastPiece;
      append(lastPiece);
      const bytes = buffer.subarray(0, length);
      length = 0;
      if (buffer.length > keepBytes) buffer = NO_BYTES;
      return bytes;
    },
    clear() {
      length = 0;
      if (buffer.length > keepBytes) buffer = NO_BYTES;
    },
  };
}
