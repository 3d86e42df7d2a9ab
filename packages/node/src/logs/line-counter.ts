/** Counting an input's physical lines and bytes as it streams by. */

const LF = 0x0a;

/** Running counts of the bytes and physical lines seen. */
export interface LineCounter {
  add(chunk: Uint8Array): void;
  /** Physical lines: line feeds, plus one for a last line without one. */
  readonly lines: number;
  readonly bytes: number;
}

/** Creates a {@link LineCounter}. */
export function createLineCounter(): LineCounter {
  let lineFeeds = 0;
  let bytes = 0;
  let endsWithLineFeed = true;
  return {
    add(chunk) {
      if (chunk.length === 0) return;
      bytes += chunk.length;
      for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, at + 1)) lineFeeds += 1;
      endsWithLineFeed = chunk[chunk.length - 1] === LF;
    },
    get lines() {
      return lineFeeds + (endsWithLineFeed ? 0 : 1);
    },
    get bytes() {
      return bytes;
    },
  };
}
