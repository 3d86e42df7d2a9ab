/**
 * A session's assistant text kept within a bound: whole while it is short, its head and tail once it is long, with
 * a digest of the whole so that it can still be compared with the result's text exactly.
 */

import { createHash, type Hash } from 'node:crypto';

/** Characters (UTF-16 units) kept from the start of a long text, and as many from its end. */
export const TEXT_HEAD_LENGTH = 65_536;
/** See {@link TEXT_HEAD_LENGTH}. */
export const TEXT_TAIL_LENGTH = 65_536;

/** The units left out of a long text: `length` of them, between `text.slice(0, at)` and `text.slice(at)`. */
export interface TextOmission {
  at: number;
  length: number;
}

/** What is left of a text once it has ended. */
export interface KeptText {
  /** The whole text, or its head and tail joined. */
  text: string;
  /** Length of the whole text in UTF-16 units (JavaScript's `length`). */
  length: number;
  /** `null` when {@link KeptText.text} is whole. */
  omitted: TextOmission | null;
  /** Whether the whole text equals `other`. */
  equals(other: string): boolean;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The first `max` units of `text`, one less when that would split a surrogate pair. */
function headOf(text: string, max: number): string {
  return isHighSurrogate(text.charCodeAt(max - 1)) ? text.slice(0, max - 1) : text.slice(0, max);
}

/** The last `max` units of `text`, one less when that would split a surrogate pair. */
function tailOf(text: string, max: number): string {
  const start = Math.max(0, text.length - max);
  return start > 0 && isLowSurrogate(text.charCodeAt(start)) ? text.slice(start + 1) : text.slice(start);
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A text kept whole. */
export function wholeText(text: string): KeptText {
  return { text, length: text.length, omitted: null, equals: (other) => other === text };
}

/** A text that grows by appending, kept in O(head + tail) memory whatever its length. */
export function createTextKeeper(headLength = TEXT_HEAD_LENGTH, tailLength = TEXT_TAIL_LENGTH) {
  let whole = '';
  let head = '';
  // The tail is kept as pieces and cut back to its bound only once it holds twice the bound: appending stays
  // linear in the text however small the pieces are.
  let tailPieces: string[] = [];
  let tailLengthNow = 0;
  let length = 0;
  let hash: Hash | undefined;

  function compactTail(): void {
    const tail = tailOf(tailPieces.join(''), tailLength);
    tailPieces = [tail];
    tailLengthNow = tail.length;
  }

  return {
    append(piece: string): void {
      if (piece === '') return;
      length += piece.length;
      if (hash !== undefined) {
        hash.update(piece);
        tailPieces.push(piece);
        tailLengthNow += piece.length;
        if (tailLengthNow > 2 * tailLength) compactTail();
        return;
      }
      whole += piece;
      if (whole.length <= headLength + tailLength) return;
      // From here on only the head, the tail and a digest of the whole are kept.
      hash = createHash('sha256').update(whole);
      head = headOf(whole, headLength);
      tailPieces = [whole.slice(head.length)];
      tailLengthNow = whole.length - head.length;
      whole = '';
      compactTail();
    },
    end(): KeptText {
      if (hash === undefined) return wholeText(whole);
      compactTail();
      const tail = tailPieces.join('');
      const wholeDigest = hash.digest('hex');
      return {
        text: head + tail,
        length,
        omitted: { at: head.length, length: length - head.length - tail.length },
        equals: (other) => other.length === length && digest(other) === wholeDigest,
      };
    },
  };
}
