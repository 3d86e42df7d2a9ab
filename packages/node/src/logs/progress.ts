/** How far the reading of a log got, told to whoever shows it. */

/** Receives how far the reading got. */
export interface Progress {
  /** Adds `bytes` more bytes read. */
  advance(bytes: number): void;
  /** The reading is over: erase what shows it. */
  done(): void;
}
