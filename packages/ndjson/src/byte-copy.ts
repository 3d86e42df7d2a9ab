/**
 * A copy of `bytes` from `from` to `to`, as a plain `Uint8Array`: a Node `Buffer`'s own `slice` is a view of the
 * caller's memory, which a reader that reads into one buffer overwrites with its next chunk, and
 * `Uint8Array.prototype.slice` on a `Buffer` makes another `Buffer`, at several times the cost.
 */
export function copyOf(bytes: Uint8Array, from = 0, to = bytes.length): Uint8Array {
  return new Uint8Array(bytes.subarray(from, to));
}
