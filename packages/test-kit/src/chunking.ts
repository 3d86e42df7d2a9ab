/**
 * Cutting an input into the chunks a stream could deliver it in, for the properties that any chunking gives what the
 * whole input gives. Strings and bytes alike: a cut may fall inside a multi-byte character or a CRLF.
 */

/**
 * `input` cut at the given positions. Any integer is a position: it is taken modulo `input.length + 1`, so
 * that an arbitrary `fc.nat()` lands anywhere in the input, not past its end. The positions are sorted and a repeated
 * one (or one at either end) gives an empty chunk, as a stream can deliver one: joined, the chunks are `input`.
 */
export function cutAt<T extends Uint8Array | string>(input: T, positions: readonly number[]): T[] {
  const span = input.length + 1;
  const cuts = positions.map((position) => ((position % span) + span) % span).sort((a, b) => a - b);
  const pieces: T[] = [];
  let from = 0;
  for (const cut of cuts) {
    pieces.push(input.slice(from, cut) as T);
    from = cut;
  }
  pieces.push(input.slice(from) as T);
  return pieces;
}

/** `input` cut into pieces of the given sizes, cycling through them (a size below 1 counts as 1); none: whole. */
export function cutBySizes<T extends Uint8Array | string>(input: T, sizes: readonly number[]): T[] {
  const pieces: T[] = [];
  let index = 0;
  for (let at = 0; at < input.length; index++) {
    const size = sizes.length === 0 ? input.length : Math.max(1, sizes[index % sizes.length] ?? 1);
    pieces.push(input.slice(at, at + size) as T);
    at += size;
  }
  return pieces;
}
