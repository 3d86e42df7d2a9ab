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

/**
 * Characters a piece of a short turn grows to before the next text starts a new one. Joining texts makes a rope that a
 * comparison flattens whole, so a turn kept as one string cost a copy of all of it per message: quadratic over a turn
 * of many small messages. In pieces, a comparison copies only the last piece and the part it compares.
 */
const PIECE_CHARS = 1024;

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
  /**
   * The text in pieces of about {@link PIECE_CHARS}: all of it while the turn is short; once only the edges are kept,
   * its last {@link TURN_TEXT_EDGE_CHARS} characters or a little more.
   */
  pieces: string[];
  /** Where each of {@link TurnText.pieces} starts in the turn. */
  pieceStarts: number[];
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
  return { pieces: [], pieceStarts: [], head: '', length: 0, compact: undefined, limit };
}

/** The text kept from `from` on (at or past the first piece's start), made of the pieces it spans only. */
function keptFrom(turn: TurnText, from: number): string {
  const { pieces, pieceStarts } = turn;
  let index = pieceStarts.length - 1;
  // Comparisons start at recent marks, so the search from the end is short.
  while (index > 0 && (pieceStarts[index] ?? 0) > from) index--;
  let text = (pieces[index] ?? '').slice(from - (pieceStarts[index] ?? 0));
  for (let next = index + 1; next < pieces.length; next++) text += pieces[next];
  return text;
}

/** Appends text to the turn. */
export function appendTurnText(turn: TurnText, text: string): void {
  if (text.length === 0) return;
  const start = turn.length;
  turn.length += text.length;
  if (turn.compact === undefined) {
    addPiece(turn, text, start);
    return;
  }
  turn.compact.print = extend(turn.compact.print, text);
  const edge = edgeOf(turn);
  if (text.length >= edge) {
    // A text past the edge may be far longer (one record's text), and must not stay held by what is kept of it.
    turn.pieces = [detachedText(text.slice(text.length - edge))];
    turn.pieceStarts = [turn.length - edge];
    return;
  }
  addPiece(turn, text, start);
  // Whole pieces go once the rest still holds the edge: the tail stays under the edge and a piece.
  while (turn.pieces.length > 1 && turn.length - (turn.pieceStarts[1] ?? turn.length) >= edge) {
    turn.pieces.shift();
    turn.pieceStarts.shift();
  }
}

function addPiece(turn: TurnText, text: string, start: number): void {
  const last = turn.pieces.length - 1;
  const piece = turn.pieces[last];
  if (piece !== undefined && piece.length + text.length <= PIECE_CHARS) turn.pieces[last] = piece + text;
  else {
    turn.pieces.push(text);
    turn.pieceStarts.push(start);
  }
}

function edgeOf(turn: TurnText): number {
  return Math.min(TURN_TEXT_EDGE_CHARS, Math.floor(turn.limit / 4));
}

/**
 * Keeps the turn within its bound: past it, the text is fingerprinted at `offsets` (the places comparisons may still
 * start from, all marked or 0) and only its edges are kept; fingerprints of offsets no longer wanted are dropped.
 */
export function boundTurnText(turn: TurnText, offsets: readonly number[]): void {
  if (turn.compact === undefined) {
    if (turn.length <= turn.limit) return;
    const whole = turn.pieces.join('');
    const edge = edgeOf(turn);
    const prefixes = new Map<number, Fingerprint>();
    let print = EMPTY;
    let at = 0;
    for (const offset of [...new Set(offsets)].sort((a, b) => a - b)) {
      print = extend(print, whole, at, offset);
      at = offset;
      prefixes.set(offset, print);
    }
    turn.compact = { print: extend(print, whole, at), prefixes };
    // The edges are cut from the whole text, which must not stay held by them.
    turn.head = detachedText(whole.slice(0, edge));
    turn.pieces = [detachedText(whole.slice(whole.length - edge))];
    turn.pieceStarts = [turn.length - edge];
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
  const tailStart = turn.pieceStarts[0] ?? turn.length;
  if (turn.compact === undefined || from >= tailStart) return text.startsWith(keptFrom(turn, from));
  // The last kept characters end the repeated part exactly; the first ones begin it when it starts the turn.
  const tail = keptFrom(turn, tailStart);
  if (text.slice(repeated - tail.length, repeated) !== tail) return false;
  if (from < turn.head.length && !text.startsWith(turn.head.slice(from))) return false;
  const start = turn.compact.prefixes.get(from);
  if (start === undefined) return false;
  const expected = between(start, turn.compact.print, repeated);
  const actual = extend(EMPTY, text, 0, repeated);
  return expected.h1 === actual.h1 && expected.h2 === actual.h2;
}
