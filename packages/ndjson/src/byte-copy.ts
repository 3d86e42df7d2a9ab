/**
 * A copy of `bytes` from `from` to `to`: a Node `Buffer`'s own `slice` is a view of the caller's memory, which a reader
 * that reads into one buffer overwrites with its next chunk.
 */
export function copyOf(bytes: Uint8Array, from = 0, to = bytes.length): Uint8Array {
  return Uint8Array.prototype.slice.call(bytes, from, to);
}
