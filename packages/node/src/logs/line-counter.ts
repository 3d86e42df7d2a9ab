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
  return new LineCount();
}

/**
 * A class, so that its getters live on one shared prototype: getters in an object literal give every counter a
 * hidden class of its own, which V8 keeps, with all its closures reach, until a full collection (one per log read).
 */
class LineCount implements LineCounter {
  #lineFeeds = 0;
  #bytes = 0;
  #endsWithLineFeed = true;

  add(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#bytes += chunk.length;
    for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, at + 1)) this.#lineFeeds += 1;
    this.#endsWithLineFeed = chunk[chunk.length - 1] === LF;
  }

  get lines(): number {
    return this.#lineFeeds + (this.#endsWithLineFeed ? 0 : 1);
  }

  get bytes(): number {
    return this.#bytes;
  }
}
