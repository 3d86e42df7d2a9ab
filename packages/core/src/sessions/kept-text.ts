/**
 * A session's assistant text kept within a bound: whole while it is short, its head and tail once it is long, with
 * a digest of the whole so that it can still be compared with the result's text exactly. Memory is O(head + tail)
 * whatever the length of the text, so a turn of any length (past what one JavaScript string can hold) is kept.
 */

import { detachedText } from '../text/index.ts';
import { createTextDigest, type TextDigest } from './text-digest.ts';

/** Characters (UTF-16 units) kept from the start of a long text by default, and as many from its end. */
export const TEXT_HEAD_LENGTH = 65_536;
/** See {@link TEXT_HEAD_LENGTH}. */
export const TEXT_TAIL_LENGTH = 65_536;

/** The units left out of a long text: `length` of them, between `text.slice(0, at)` and `text.slice(at)`. */
export interface TextOmission {
  at: number;
  length: number;
}

/** What is kept of a text. */
export interface KeptText {
  /** The whole text, or its head and tail joined. */
  text: string;
  /** Length of the whole text in UTF-16 units (JavaScript's `length`). */
  length: number;
  /** `null` when {@link KeptText.text} is whole. */
  omitted: TextOmission | null;
}

/** Options of {@link createTextKeeper}. */
export interface TextKeeperOptions {
  /** Units kept from the start of a long text; {@link TEXT_HEAD_LENGTH} by default, `Infinity` keeps it whole. */
  headLength?: number | undefined;
  /** Units kept from the end of a long text; {@link TEXT_TAIL_LENGTH} by default, `Infinity` keeps it whole. */
  tailLength?: number | undefined;
  /**
   * Creates the digest a long text is compared by; a pure SHA-256 by default. `null` keeps no digest: a text that
   * was cut can then be compared by its length only (see {@link TextKeeper.equals}).
   */
  digest?: (() => TextDigest) | null | undefined;
}

/** A text that grows by appending; see {@link createTextKeeper}. */
export interface TextKeeper {
  /** Takes the next piece. */
  append(piece: string): void;
  /** What is kept of the text so far; more pieces may follow. */
  kept(): KeptText;
  /**
   * Whether the whole text so far equals `other`; `null` when it was cut, no digest was kept and `other` has its
   * length.
   */
  equals(other: string): boolean | null;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The first `max` units of `text`, one less when that would split a surrogate pair. */
function headOf(text: string, max: number): string {
  return max > 0 && isHighSurrogate(text.charCodeAt(max - 1)) ? text.slice(0, max - 1) : text.slice(0, max);
}

/** The last `max` units of `text`, one less when that would split a surrogate pair. */
function tailOf(text: string, max: number): string {
  const start = Math.max(0, text.length - max);
  return start > 0 && isLowSurrogate(text.charCodeAt(start)) ? text.slice(start + 1) : text.slice(start);
}

/** A bound as given, or its default; never negative. */
function boundOf(value: number | undefined, fallback: number): number {
  return value === undefined || Number.isNaN(value) ? fallback : Math.max(0, Math.floor(value));
}

/** Creates a keeper of a text that grows by appending, in O(head + tail) memory whatever its length. */
export function createTextKeeper(options: TextKeeperOptions = {}): TextKeeper {
  const headLength = boundOf(options.headLength, TEXT_HEAD_LENGTH);
  const tailLength = boundOf(options.tailLength, TEXT_TAIL_LENGTH);
  const newDigest = options.digest === undefined ? createTextDigest : options.digest;
  let whole = '';
  let cut = false;
  let head = '';
  // The tail is kept as pieces and cut back to its bound only once it holds twice the bound: appending stays
  // linear in the text however small the pieces are.
  let tailPieces: string[] = [];
  let tailLengthNow = 0;
  let length = 0;
  let digest: TextDigest | undefined;

  function compactTail(): string {
    const only = tailPieces.length === 1 ? tailPieces[0] : undefined;
    if (only !== undefined && only.length <= tailLength) return only;
    // Cut from a piece that may be far longer than the tail (one record's text), which must not stay held by it.
    const tail = detachedText(tailOf(tailPieces.join(''), tailLength));
    tailPieces = [tail];
    tailLengthNow = tail.length;
    return tail;
  }

  return {
    append(piece) {
      if (piece === '') return;
      length += piece.length;
      if (cut) {
        digest?.update(piece);
        tailPieces.push(piece);
        tailLengthNow += piece.length;
        if (tailLengthNow > 2 * tailLength) compactTail();
        return;
      }
      whole += piece;
      if (whole.length <= headLength + tailLength) return;
      // From here on only the head, the tail and a digest of the whole are kept.
      cut = true;
      digest = newDigest?.();
      digest?.update(whole);
      head = detachedText(headOf(whole, headLength));
      tailPieces = [whole.slice(head.length)];
      tailLengthNow = whole.length - head.length;
      whole = '';
      compactTail();
    },
    kept() {
      if (!cut) return { text: whole, length, omitted: null };
      const tail = compactTail();
      return {
        text: head + tail,
        length,
        omitted: { at: head.length, length: length - head.length - tail.length },
      };
    },
    equals(other) {
      if (!cut) return other === whole;
      if (other.length !== length) return false;
      if (digest === undefined || newDigest === null) return null;
      const theirs = newDigest();
      theirs.update(other);
      return theirs.digest() === digest.digest();
    },
  };
}
