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
  escapeControlCharacters,
  excerptOf,
  firstSignificantChar,
  INSIDE,
  isJsonObject,
  isJsonWhitespace,
  OUTSIDE,
  scanStringState,
} from './json-text.ts';
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

/** Default {@link NdjsonTokenizerOptions.maxRecordBytes}: 64 MiB, well above the largest tool result seen. */
export const DEFAULT_MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** A record whose last physical line ended inside a string, waiting for the line that closes it. */
interface OpenRecord {
  line: number;
  offset: number;
  /** Physical lines so far, raw (a CR before each line's LF is kept: inside a string it is content). */
  lines: string[];
  /** The start of the record, for the problem that reports it. */
  excerpt: string;
  /**
   * Set once the record outgrew maxRecordBytes: its lines are dropped, but the string state is still followed, so
   * that the skip ends where the record does instead of reading the rest of the string as garbage lines.
   */
  oversize: boolean;
}

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
 * @throws RangeError when `maxRecordBytes` is not a positive integer.
 */
export function createNdjsonTokenizer(options: NdjsonTokenizerOptions = {}): NdjsonTokenizer {
  const maxRecordBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  if (!Number.isSafeInteger(maxRecordBytes) || maxRecordBytes <= 0) {
    throw new RangeError(`maxRecordBytes must be a positive integer, got ${String(options.maxRecordBytes)}`);
  }
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
  let skipping: { line: number; offset: number; excerpt: string } | null = null;
  let openRecord: OpenRecord | null = null;
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

  /**
   * Fast path: one complete physical line, with no record open. `contentEnd` is the offset of its LF (or of the end
   * of input), `end` the offset just past its terminator.
   */
  function readLine(text: string, contentEnd: number, end: number, terminated: boolean): void {
    if (openRecord !== null) {
      continueOpenRecord(openRecord, text, contentEnd, end, terminated);
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
    if (first !== '{' && first !== '[' && first !== '"') {
      emitProblem('invalid-json', invalidJsonMessage(parseError), lineNumber, lineStart, end, text);
      return;
    }
    const state = scanStringState(text, OUTSIDE);
    if (state !== OUTSIDE) {
      if (terminated)
        openRecord = { line: lineNumber, offset: lineStart, lines: [text], excerpt: text, oversize: false };
      else
        emitProblem(
          'truncated',
          'input ends inside a string of this record',
          lineNumber,
          lineStart,
          end,
          text,
        );
      return;
    }
    parseRepaired(
      text,
      lineNumber,
      lineStart,
      end,
      terminated,
      terminated ? 'invalid-json' : 'truncated',
      parseError,
    );
  }

  /** A record open in a string meets its next physical line: a new record, more of the string, or its end. */
  function continueOpenRecord(
    open: OpenRecord,
    text: string,
    contentEnd: number,
    end: number,
    terminated: boolean,
  ): void {
    const newRecord = parseStandaloneObject(text);
    if (newRecord !== undefined) {
      openRecord = null;
      giveUpOpenRecord(open, lineStart);
      if (skipRecord?.(text) === true) emitSkip('filtered', lineNumber, lineStart, end - lineStart);
      else emitValue(newRecord, text, lineNumber, lineStart, end, terminated);
      return;
    }
    if (!open.oversize) {
      open.lines.push(text);
      if (contentEnd - open.offset > maxRecordBytes) {
        open.oversize = true;
        open.lines = [];
      }
    }
    // The LF before this line was string content (or the character after a backslash): the line starts inside.
    if (scanStringState(text, INSIDE) !== OUTSIDE) {
      if (!terminated) {
        openRecord = null;
        giveUpOpenRecord(open, end);
      }
      return;
    }
    openRecord = null;
    if (open.oversize) reportOversize(open.line, open.offset, end, open.excerpt);
    else parseRepaired(open.lines.join('\n'), open.line, open.offset, end, terminated, 'invalid-json');
  }

  /** Reports an open record that will never close, because a new record began at `end` or the input ended. */
  function giveUpOpenRecord(open: OpenRecord, end: number): void {
    if (open.oversize) reportOversize(open.line, open.offset, end, open.excerpt);
    else if (end === consumed && ended) {
      emitProblem(
        'truncated',
        'input ends inside a string of this record',
        open.line,
        open.offset,
        end,
        open.excerpt,
      );
    } else {
      const message = `record ends inside a string; line ${lineNumber} starts a new record`;
      emitProblem('unterminated-string', message, open.line, open.offset, end, open.excerpt);
    }
  }

  /** Parses text whose strings may hold raw control characters, emitting a record or a problem. */
  function parseRepaired(
    text: string,
    line: number,
    offset: number,
    end: number,
    terminated: boolean,
    failure: NdjsonProblemCode,
    parseError?: unknown,
  ): void {
    const repaired = escapeControlCharacters(text);
    let value: unknown;
    try {
      // Text that `JSON.parse` already rejected and that repair left unchanged would only fail again.
      if (repaired === text && parseError !== undefined) throw parseError;
      value = JSON.parse(repaired);
    } catch (error) {
      const message = failure === 'truncated' ? 'input ends inside this record' : invalidJsonMessage(error);
      emitProblem(failure, message, line, offset, end, text);
      return;
    }
    emitValue(value, text, line, offset, end, terminated);
  }

  function reportOversize(line: number, offset: number, end: number, text: string): void {
    emitProblem(
      'oversize',
      `record is larger than maxRecordBytes (${maxRecordBytes} bytes); skipped to the next line`,
      line,
      offset,
      end,
      text,
    );
  }

  /** Drops everything held for the current record and skips the rest of it up to the next LF. */
  function startSkipping(): void {
    const open = openRecord;
    skipping = open
      ? { line: open.line, offset: open.offset, excerpt: open.excerpt }
      : { line: lineNumber, offset: lineStart, excerpt: lineParts[0] ?? '' };
    openRecord = null;
    lineParts = [];
  }

  function finishSkipping(end: number): void {
    if (skipping === null) return;
    reportOversize(skipping.line, skipping.offset, end, skipping.excerpt);
    skipping = null;
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
        finishSkipping(end);
      } else {
        const piece = text.slice(from, lf);
        readLine(lineParts.length === 0 ? piece : takeLine(piece), base + lfByte, end, true);
      }
      lineStart = end;
      lineNumber++;
      from = lf + 1;
      byteFrom = lfByte + 1;
    }
    if (skipping !== null) return;
    if (from < text.length) lineParts.push(from === 0 ? text : text.slice(from));
    if (consumed - heldFrom() > maxRecordBytes) startSkipping();
  }

  /** Offset of the first input byte still held: the open record's start, or the current line's. */
  function heldFrom(): number {
    return openRecord === null || openRecord.oversize ? lineStart : openRecord.offset;
  }

  function takeLine(lastPiece: string): string {
    lineParts.push(lastPiece);
    const line = lineParts.join('');
    lineParts = [];
    return line;
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
      else if (chunk instanceof Uint8Array) feedBytes(chunk);
      else
        throw new TypeError(`NdjsonTokenizer.feed() takes a Uint8Array or a string, got ${describe(chunk)}`);
      return drain();
    },

    end(): readonly NdjsonItem[] {
      if (ended) return NOTHING;
      if (pendingHighSurrogate !== '') {
        // A lone high surrogate at the very end encodes as U+FFFD, as TextEncoder does for any lone surrogate.
        const lone = pendingHighSurrogate;
        pendingHighSurrogate = '';
        feedBytes((encoder ?? new TextEncoder()).encode(lone));
      }
      ended = true;
      const rest = decoder.decode();
      if (skipping !== null) {
        finishSkipping(consumed);
      } else if (rest.length > 0 || lineParts.length > 0) {
        readLine(takeLine(rest), consumed, consumed, false);
      }
      const open = openRecord;
      if (open !== null) {
        openRecord = null;
        emitProblem(
          'truncated',
          'input ends inside a string of this record',
          open.line,
          open.offset,
          consumed,
          open.lines[0] ?? '',
        );
      }
      return drain();
    },

    get bufferedBytes(): number {
      return skipping === null ? consumed - heldFrom() : 0;
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
      openRecord = null;
      ended = false;
      collected = [];
    },
  };
}

/**
 * A line that is a complete JSON object on its own (checked cheaply first: it must start with `{`). Returns
 * undefined otherwise. A continuation of a string can look like this only if it holds no quote at all, so an empty
 * object is not taken as a new record.
 */
function parseStandaloneObject(text: string): Record<string, unknown> | undefined {
  if (firstSignificantChar(text) !== '{' || text.indexOf('"') === -1) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function invalidJsonMessage(parseError: unknown): string {
  return parseError instanceof Error ? `not valid JSON: ${parseError.message}` : 'not valid JSON';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return value.constructor?.name ?? 'an object';
  return typeof value;
}
