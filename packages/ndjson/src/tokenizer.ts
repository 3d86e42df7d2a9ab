/**
 * The incremental NDJSON tokenizer.
 *
 * Design (measured in the project's perf notes): decode each chunk with one streaming `TextDecoder`, find line feeds
 * with `String#indexOf`, and hand each line to `JSON.parse` optimistically. A line cut by a raw line feed inside a
 * string can never parse (it ends in an open string), so "parsed" exactly means "this LF ends a record", and the
 * character scan that joins continuation lines runs only after a parse failure. That keeps the common path at the
 * speed of a plain split-and-parse loop.
 *
 * Byte offsets come from walking the chunk's 0x0A bytes in step with the decoded text's LFs: an LF byte never occurs
 * inside a UTF-8 sequence, so the n-th LF of the text is the n-th 0x0A byte of the input.
 *
 * @see https://github.com/ndjson/ndjson-spec
 */

import {
  EXCERPT_LENGTH,
  excerptOf,
  firstSignificantChar,
  INSIDE,
  isJsonObject,
  isJsonWhitespace,
  OUTSIDE,
  type StringState,
  scanStringState,
} from './json-text.ts';
import { outputLineMessage, startsLikeJson } from './line-kind.ts';
import { createResync, endsEarly, invalidJsonMessage, type LineSpan } from './open-record-resync.ts';
import { oversizeMessage, resolveMaxRecordBytes } from './record-limits.ts';
import { mayOpenInString, parseRepaired } from './record-text.ts';
import type {
  NdjsonChunk,
  NdjsonItem,
  NdjsonProblem,
  NdjsonProblemCode,
  NdjsonRecord,
  NdjsonSkip,
  NdjsonTokenizer,
  NdjsonTokenizerOptions,
} from './types.ts';

const LF = 0x0a;
const CR = 0x0d;
const BYTE_ORDER_MARK = 0xfeff;
const BYTE_ORDER_MARK_BYTES = 3;
const NOTHING: readonly NdjsonItem[] = Object.freeze([]);

/** An oversize stretch being passed over up to its line feed; nothing of it is held but its excerpt. */
interface Skip {
  line: number;
  offset: number;
  excerpt: string;
  /**
   * For a line inside an open stretch's string: the string state so far, followed so that the stretch goes on past
   * this line feed if its string does. `undefined` for a line of its own.
   */
  state: StringState | undefined;
}

/** Line pieces shorter than this are merged as they arrive, so tiny chunks do not cost one string each. */
const SMALL_PIECE = 8192;

/**
 * Creates an incremental NDJSON tokenizer.
 *
 * Feed it chunks cut anywhere; it emits one record per JSON line with its physical line number and byte span, and a
 * located problem for every stretch that is not a record, then goes on. It splits on LF only (a CR before the LF
 * belongs to the terminator; a lone CR, U+2028 and U+2029 never split), skips a leading byte order mark and blank
 * lines, reads a string value that holds raw line breaks as one record, and never throws on bad input.
 *
 * @example
 * ```ts
 * const tokenizer = createNdjsonTokenizer({ onRecord: (r) => console.log(r.line, r.value) });
 * for await (const chunk of stream) tokenizer.feed(chunk);
 * tokenizer.end();
 * ```
 * @param options - Limits and callbacks; see {@link NdjsonTokenizerOptions}.
 * @returns A tokenizer with `feed`, `end` and `reset`.
 * @throws RangeError when `maxRecordBytes` is not a positive integer or is above {@link MAX_RECORD_BYTES_CAP}.
 */
export function createNdjsonTokenizer(options: NdjsonTokenizerOptions = {}): NdjsonTokenizer {
  const maxRecordBytes = resolveMaxRecordBytes(options.maxRecordBytes);
  const objectsOnly = options.objectsOnly ?? false;
  const { onRecord, onProblem, onSkip, skipRecord } = options;

  // ignoreBOM keeps a leading BOM in the text, so that its three bytes can be accounted for as a skip.
  let decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  // Created on the first string chunk only; most streams are bytes.
  let encoder: TextEncoder | undefined;
  // A string chunk may end between the two halves of a surrogate pair; the high half waits for the next chunk.
  let pendingHighSurrogate = '';
  // Bytes fed so far, i.e. the input offset of the next chunk's first byte.
  let consumed = 0;
  // Input offset and 1-based number of the physical line being read.
  let lineStart = 0;
  let lineNumber = 1;
  // The BOM check looks at the first decoded character only.
  let atStreamStart = true;
  // Decoded text of the current physical line seen so far, joined once its LF arrives (a running `+=` would be
  // quadratic on a long line fed in small chunks).
  let lineParts: string[] = [];
  // Set while an oversize record is skipped up to the next LF; nothing of it is held.
  let skipping: Skip | null = null;
  let ended = false;
  // Items no callback took, returned from the current feed/end call.
  let collected: NdjsonItem[] = [];

  function emitRecord(record: NdjsonRecord): void {
    if (onRecord) onRecord(record);
    else collected.push(record);
  }

  function emitProblem(
    code: NdjsonProblemCode,
    message: string,
    line: number,
    offset: number,
    end: number,
    text: string,
  ): void {
    const problem: NdjsonProblem = {
      code,
      message,
      line,
      offset,
      length: end - offset,
      excerpt: excerptOf(text),
    };
    if (onProblem) onProblem(problem);
    else collected.push(problem);
  }

  function emitSkip(reason: NdjsonSkip['reason'], line: number, offset: number, length: number): void {
    onSkip?.({ reason, line, offset, length });
  }

  /** Emits a parsed value as a record, or as `not-an-object` when only objects are wanted. */
  function emitValue(
    value: unknown,
    text: string,
    line: number,
    offset: number,
    end: number,
    terminated: boolean,
  ): void {
    // A CR right before the LF belongs to the line terminator, not to the record's text.
    const recordText = terminated && text.charCodeAt(text.length - 1) === CR ? text.slice(0, -1) : text;
    if (objectsOnly && !isJsonObject(value)) {
      const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
      emitProblem('not-an-object', `expected a JSON object, got ${kind}`, line, offset, end, recordText);
      return;
    }
    emitRecord({ value, text: recordText, line, offset, length: end - offset });
  }

  const resync = createResync(maxRecordBytes, {
    lineRecord(value, text, span) {
      if (skipRecord?.(text) === true) emitSkip('filtered', span.line, span.offset, span.end - span.offset);
      else emitValue(value, text, span.line, span.offset, span.end, span.terminated);
    },
    record: emitValue,
    problem: emitProblem,
  });

  /**
   * Fast path: one complete physical line, with no record open. `contentEnd` is the offset of its LF (or of the end
   * of input), `end` the offset just past its terminator.
   */
  function readLine(text: string, contentEnd: number, end: number, terminated: boolean): void {
    if (resync.isOpen) {
      const span: LineSpan = { line: lineNumber, offset: lineStart, contentEnd, end, terminated };
      resync.next(text, span);
      return;
    }
    const length = text.length;
    if (length === 0 || (length === 1 && text.charCodeAt(0) === CR)) {
      emitSkip('blank-line', lineNumber, lineStart, end - lineStart);
      return;
    }
    if (contentEnd - lineStart > maxRecordBytes) {
      reportOversize(lineNumber, lineStart, end, text);
      return;
    }
    if (skipRecord?.(text) === true && scanStringState(text, OUTSIDE) === OUTSIDE) {
      emitSkip('filtered', lineNumber, lineStart, end - lineStart);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      readUnparsedLine(text, end, terminated, error);
      return;
    }
    emitValue(value, text, lineNumber, lineStart, end, terminated);
  }

  /** Slow path: a line that `JSON.parse` rejected is blank, the start of a multi-line record, or a problem. */
  function readUnparsedLine(text: string, end: number, terminated: boolean, parseError: unknown): void {
    if (isJsonWhitespace(text)) {
      emitSkip('blank-line', lineNumber, lineStart, end - lineStart);
      return;
    }
    const first = firstSignificantChar(text);
    if (!mayOpenInString(first)) {
      if (startsLikeJson(text))
        emitProblem('invalid-json', invalidJsonMessage(parseError), lineNumber, lineStart, end, text);
      else emitProblem('non-json-output', outputLineMessage(text), lineNumber, lineStart, end, text);
      return;
    }
    if (scanStringState(text, OUTSIDE) !== OUTSIDE) {
      if (terminated) resync.open(text, lineNumber, lineStart);
      else emitTruncated(lineNumber, lineStart, end, text);
      return;
    }
    const parsed = parseRepaired(text, parseError);
    if (parsed.ok) emitValue(parsed.value, text, lineNumber, lineStart, end, terminated);
    // At the end of input, a record the parser ran out of is cut short; anything else is simply not JSON.
    else if (!terminated && endsEarly(parsed.error, parsed.parsed))
      emitProblem('truncated', 'input ends inside this record', lineNumber, lineStart, end, text);
    else emitProblem('invalid-json', invalidJsonMessage(parsed.error), lineNumber, lineStart, end, text);
  }

  function emitTruncated(line: number, offset: number, end: number, text: string): void {
    emitProblem('truncated', 'input ends inside a string of this record', line, offset, end, text);
  }

  function reportOversize(line: number, offset: number, end: number, text: string): void {
    emitProblem('oversize', oversizeMessage(maxRecordBytes), line, offset, end, text);
  }

  /**
   * Keeps the input held under maxRecordBytes: readings of an open stretch that can no longer fit are dropped (its
   * string is still followed), and a line over the limit on its own is skipped up to its LF.
   */
  function boundHeldBytes(): void {
    resync.bound(consumed);
    if (consumed - lineStart > maxRecordBytes) startSkipping();
  }

  function startSkipping(): void {
    const open = resync.detach();
    if (open === null) {
      skipping = { line: lineNumber, offset: lineStart, excerpt: headOf(lineParts), state: undefined };
    } else {
      let state: StringState = INSIDE;
      for (const part of lineParts) state = scanStringState(part, state);
      const excerpt = headOf([open.head, '\n', ...lineParts]);
      skipping = { line: open.line, offset: open.offset, excerpt, state };
    }
    lineParts = [];
  }

  /** A piece of the line being skipped: its excerpt grows to what an excerpt shows, its string state is followed. */
  function skipPiece(skip: Skip, piece: string): void {
    if (skip.state !== undefined) skip.state = scanStringState(piece, skip.state);
    if (skip.excerpt.length <= EXCERPT_LENGTH)
      skip.excerpt += piece.slice(0, EXCERPT_LENGTH + 1 - skip.excerpt.length);
  }

  /** The skipped line reached its LF: the stretch goes on if its string does, else the oversize stretch is reported. */
  function endSkippedLine(skip: Skip, end: number): void {
    skipping = null;
    if (skip.state !== undefined && skip.state !== OUTSIDE)
      resync.reopen(skip.line, skip.offset, skip.excerpt);
    else reportOversize(skip.line, skip.offset, end, skip.excerpt);
  }

  /** Adds a piece of the current line, merging small pieces so that tiny chunks do not cost one string each. */
  function appendLinePart(piece: string): void {
    lineParts.push(piece);
    for (let count = lineParts.length; count >= 2; count = lineParts.length) {
      const last = lineParts[count - 1] as string;
      const previous = lineParts[count - 2] as string;
      if (last.length >= SMALL_PIECE || previous.length > last.length) break;
      lineParts.length = count - 2;
      lineParts.push(previous + last);
    }
  }

  function feedBytes(chunk: Uint8Array): void {
    let text = decoder.decode(chunk, { stream: true });
    const base = consumed;
    consumed += chunk.length;
    if (atStreamStart && text.length > 0) {
      atStreamStart = false;
      if (text.charCodeAt(0) === BYTE_ORDER_MARK) {
        text = text.slice(1);
        emitSkip('byte-order-mark', 1, 0, BYTE_ORDER_MARK_BYTES);
        lineStart = BYTE_ORDER_MARK_BYTES;
      }
    }
    let from = 0;
    let byteFrom = 0;
    for (;;) {
      const lf = text.indexOf('\n', from);
      if (lf === -1) break;
      const lfByte = chunk.indexOf(LF, byteFrom);
      const end = base + lfByte + 1;
      if (skipping !== null) {
        skipPiece(skipping, text.slice(from, lf));
        endSkippedLine(skipping, end);
      } else {
        const piece = text.slice(from, lf);
        readLine(lineParts.length === 0 ? piece : takeLine(piece), base + lfByte, end, true);
      }
      lineStart = end;
      lineNumber++;
      from = lf + 1;
      byteFrom = lfByte + 1;
    }
    if (skipping !== null) {
      skipPiece(skipping, from === 0 ? text : text.slice(from));
      return;
    }
    if (from < text.length) appendLinePart(from === 0 ? text : text.slice(from));
    // Up to two bytes of a byte order mark may wait in the decoder: they are not part of any line yet.
    if (atStreamStart) return;
    if (consumed - heldFrom() > maxRecordBytes) boundHeldBytes();
  }

  /** Offset of the first input byte still held: the open record's start, or the current line's. */
  function heldFrom(): number {
    return resync.heldFrom() ?? lineStart;
  }

  function takeLine(lastPiece: string): string {
    lineParts.push(lastPiece);
    const line = lineParts.join('');
    lineParts = [];
    return line;
  }

  /** A lone high surrogate left by a string chunk becomes U+FFFD, as TextEncoder writes any lone surrogate. */
  function flushPendingSurrogate(): void {
    if (pendingHighSurrogate === '') return;
    const lone = pendingHighSurrogate;
    pendingHighSurrogate = '';
    encoder ??= new TextEncoder();
    feedBytes(encoder.encode(lone));
  }

  function feedString(chunk: string): void {
    let text = pendingHighSurrogate + chunk;
    pendingHighSurrogate = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      pendingHighSurrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    encoder ??= new TextEncoder();
    feedBytes(encoder.encode(text));
  }

  function drain(): readonly NdjsonItem[] {
    if (collected.length === 0) return NOTHING;
    const items = collected;
    collected = [];
    return items;
  }

  return {
    feed(chunk: NdjsonChunk): readonly NdjsonItem[] {
      if (ended)
        throw new TypeError('NdjsonTokenizer.feed() called after end(); call reset() to read a new stream');
      if (typeof chunk === 'string') feedString(chunk);
      else if (chunk instanceof Uint8Array) {
        // A string chunk's last high surrogate waits for its other half, which bytes cannot bring: it goes first.
        flushPendingSurrogate();
        feedBytes(chunk);
      } else
        throw new TypeError(`NdjsonTokenizer.feed() takes a Uint8Array or a string, got ${describe(chunk)}`);
      return drain();
    },

    end(): readonly NdjsonItem[] {
      if (ended) return NOTHING;
      flushPendingSurrogate();
      ended = true;
      const rest = decoder.decode();
      const skip = skipping;
      if (skip !== null) {
        skipPiece(skip, rest);
        skipping = null;
        reportOversize(skip.line, skip.offset, consumed, skip.excerpt);
      } else if (rest.length > 0 || lineParts.length > 0) {
        readLine(takeLine(rest), consumed, consumed, false);
      }
      resync.finish(consumed);
      return drain();
    },

    get bufferedBytes(): number {
      return skipping === null && !atStreamStart ? consumed - heldFrom() : 0;
    },

    reset(): void {
      decoder = new TextDecoder('utf-8', { ignoreBOM: true });
      pendingHighSurrogate = '';
      consumed = 0;
      lineStart = 0;
      lineNumber = 1;
      atStreamStart = true;
      lineParts = [];
      skipping = null;
      resync.reset();
      ended = false;
      collected = [];
    },
  };
}

/** The first characters of a text given in pieces, as many as an excerpt shows (one more, so it knows to cut). */
function headOf(pieces: readonly string[]): string {
  let head = '';
  for (const piece of pieces) {
    if (head.length > EXCERPT_LENGTH) break;
    head += piece.slice(0, EXCERPT_LENGTH + 1 - head.length);
  }
  return head;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return value.constructor?.name ?? 'an object';
  return typeof value;
}
