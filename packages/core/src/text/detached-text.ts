/**
 * Kept pieces of large texts. A JavaScript engine may cut a string without copying it (V8's sliced strings), the cut
 * then holding the whole text it came from: 64 Ki characters kept of a 32 MB record would keep the 32 MB.
 */

/**
 * `text` in memory of its own, so that keeping it keeps nothing it was cut from. Linear in `text`'s length: for
 * the bounded pieces state keeps, not for every string.
 */
export function detachedText(text: string): string {
  // Concatenating, then cutting, makes the engine write the characters into a new string first; only that new one
  // (one character longer) is held by the result.
  return ` ${text}`.slice(1);
}
