/**
 * The text of one assistant turn, as the deduplication of repeated messages needs it: its length, and whether a
 * message begins with the part of it since a given offset. Up to {@link MAX_TURN_TEXT_CHARS} the text is kept and
 * compared as it is. Past that, a turn of any length (a runaway model, a gigabyte of output) keeps only its first and
 * last {@link TURN_TEXT_EDGE_CHARS} characters and a polynomial fingerprint of every prefix a comparison can start
 * at, so its memory stays bounded and no string outgrows what the runtime can hold. A comparison then checks the
 * edges exactly and the middle by fingerprint (two 26-bit moduli: a false match is about 1 in 2^52).
 */

import { detachedText } from '../text/index.ts';

/** Characters of one turn kept whole: 4 Mi (8 MiB of memory), far above any real turn. */
export const MAX_TURN_TEXT_CHARS = 4 * 1024 * 1024;

/** Characters kept at each end of a turn past {@link MAX_TURN_TEXT_CHARS}. */
export const TURN_TEXT_EDGE_CHARS = 64 * 1024;

// Two primes below 2^26 and small bases: every product stays below 2^53, exact in a double.
const P1 = 67_108_859;
const P2 = 67_108_837;
const B1 = 40_503;
const B2 = 65_599;

/** A polynomial fingerprint of a text under both moduli. */
interface Fingerprint {
  h1: number;
  h2: number;
}

function extend(print: Fingerprint, text: string, from = 0, to = text.length): Fingerprint {
  let { h1, h2 } = print;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    h1 = (h1 * B1 + code) % P1;
    h2 = (h2 * B2 + code) % P2;
  }
  return { h1, h2 };
}

function power(base: number, exponent: number, modulus: number): number {
  let result = 1;
  let square = base % modulus;
  for (let rest = exponent; rest > 0; rest = Math.floor(rest / 2)) {
    if (rest % 2 === 1) result = (result * square) % modulus;
    square = (square * square) % modulus;
  }
  return result;
}

/** Fingerprint of the text between two prefixes, `length` characters apart. */
function between(start: Fingerprint, end: Fingerprint, length: number): Fingerprint {
  const h1 = (end.h1 - ((start.h1 * power(B1, length, P1)) % P1) + P1) % P1;
  const h2 = (end.h2 - ((start.h2 * power(B2, length, P2)) % P2) + P2) % P2;
  return { h1, h2 };
}

const EMPTY: Fingerprint = { h1: 0, h2: 0 };

/** One turn's text; see the module comment. */
export interface TurnText {
  /** The whole text while it is short; past the bound, its last {@link TURN_TEXT_EDGE_CHARS} characters. */
  kept: string;
  /** Its first characters, once only the edges are kept. */
  head: string;
  /** Its full length in UTF-16 units. */
  length: number;
  /** Set once only the edges are kept: the fingerprint of the whole text and of the prefixes marked since. */
  compact: { print: Fingerprint; prefixes: Map<number, Fingerprint> } | undefined;
  /** Characters kept whole at most. */
  limit: number;
}

/** An empty turn; `limit` lowers the bound, for tests. */
export function createTurnText(limit = MAX_TURN_TEXT_CHARS): TurnText {
  return { kept: '', head: '', length: 0, compact: undefined, limit };
}

/** Appends text to the turn. */
export function appendTurnText(turn: TurnText, text: string): void {
  turn.length += text.length;
  if (turn.compact === undefined) {
    turn.kept += text;
    return;
  }
  turn.compact.print = extend(turn.compact.print, text);
  turn.kept = keepTail(turn.kept, text, edgeOf(turn));
}

function edgeOf(turn: TurnText): number {
  return Math.min(TURN_TEXT_EDGE_CHARS, Math.floor(turn.limit / 4));
}

function keepTail(kept: string, text: string, edge: number): string {
  // A text past the edge may be far longer (one record's text), and must not stay held by what is kept of it.
  if (text.length >= edge) return detachedText(text.slice(text.length - edge));
  const joined = kept + text;
  // Trim only once the tail has grown to twice its size, so appends stay amortised constant.
  return joined.length > 2 * edge ? joined.slice(joined.length - edge) : joined;
}

/**
 * Keeps the turn within its bound: past it, the text is fingerprinted at `offsets` (the places comparisons may still
 * start from, all marked or 0) and only its edges are kept; fingerprints of offsets no longer wanted are dropped.
 */
export function boundTurnText(turn: TurnText, offsets: readonly number[]): void {
  if (turn.compact === undefined) {
    if (turn.kept.length <= turn.limit) return;
    const edge = edgeOf(turn);
    const prefixes = new Map<number, Fingerprint>();
    let print = EMPTY;
    let at = 0;
    for (const offset of [...new Set(offsets)].sort((a, b) => a - b)) {
      print = extend(print, turn.kept, at, offset);
      at = offset;
      prefixes.set(offset, print);
    }
    turn.compact = { print: extend(print, turn.kept, at), prefixes };
    // The edges are cut from the whole text, which must not stay held by them.
    turn.head = detachedText(turn.kept.slice(0, edge));
    turn.kept = detachedText(turn.kept.slice(turn.kept.length - edge));
    return;
  }
  const { prefixes } = turn.compact;
  if (prefixes.size <= offsets.length) return;
  const wanted = new Set(offsets);
  for (const offset of prefixes.keys()) if (!wanted.has(offset)) prefixes.delete(offset);
}

/** Marks the turn's current end as a place a comparison may start from, and returns it. */
export function markTurnStart(turn: TurnText): number {
  if (turn.compact !== undefined) turn.compact.prefixes.set(turn.length, turn.compact.print);
  return turn.length;
}

/** Whether `text` begins with the turn's text from offset `from` on (a marked offset once the turn is compact). */
export function startsWithTurnFrom(turn: TurnText, text: string, from: number): boolean {
  const repeated = turn.length - from;
  if (text.length < repeated) return false;
  if (turn.compact === undefined) return text.startsWith(turn.kept.slice(from));
  const tailStart = turn.length - turn.kept.length;
  if (from >= tailStart) return text.startsWith(turn.kept.slice(from - tailStart));
  // The last kept characters end the repeated part exactly; the first ones begin it when it starts the turn.
  if (text.slice(repeated - turn.kept.length, repeated) !== turn.kept) return false;
  if (from < turn.head.length && !text.startsWith(turn.head.slice(from))) return false;
  const start = turn.compact.prefixes.get(from);
  if (start === undefined) return false;
  const expected = between(start, turn.compact.print, repeated);
  const actual = extend(EMPTY, text, 0, repeated);
  return expected.h1 === actual.h1 && expected.h2 === actual.h2;
}
