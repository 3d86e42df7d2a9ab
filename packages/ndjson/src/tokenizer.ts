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

import { copyOf } from './byte-copy.ts';
import { createHeldLine } from './held-line.ts';
import {
  createDocumentReader,
  createDocumentSniffer,
  type DocumentReader,
  type DocumentSniffer,
} from './json-document.ts';
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
import { defineLazyText, lazyStringBounds, parseWithLazyStrings } from './lazy-strings.ts';
import { outputLineMessage, startsLikeJson } from './line-kind.ts';
import { createResync, endsEarly, invalidJsonMessage, type LineSpan } from './open-record-resync.ts';
import { oversizeMessage, resolveMaxRecordBytes } from './record-limits.ts';
import { mayOpenInString, parseRepaired } from './record-text.ts';
import type {
  NdjsonChunk,
  NdjsonItem,
  NdjsonLineView,
  NdjsonProblem,
  NdjsonProblemCode,
  NdjsonRecord,
  NdjsonSkip,
  NdjsonTokenizer,
  NdjsonTokenizerOptions,
} from './types.ts';

/** The most bytes of a chunk decoded at once (see `feedBytes`). */
const MAX_SLICE_BYTES = 16 * 1024 * 1024;
const LF = 0x0a;
const CR = 0x0d;
const LEFT_BRACE = 0x7b;
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];
const BYTE_ORDER_MARK_BYTES = 3;
const NO_BYTES = new Uint8Array(0);

/** Whether `bytes` begin with the UTF-8 byte order mark, or with as much of it as they hold. */
function startsLikeByteOrderMark(bytes: Uint8Array): boolean {
  const length = Math.min(bytes.length, BYTE_ORDER_MARK_BYTES);
  for (let at = 0; at < length; at++) if (bytes[at] !== BYTE_ORDER_MARK[at]) return false;
  return true;
}
const NOTHING: readonly NdjsonItem[] = Object.freeze([]);

/**
 * Decodes whole lines, a chunk's or one held over several chunks, at once when the line feed arrives; a line's bytes
 * never end inside a character (a line feed cannot be part of one), so decoding keeps no state between calls, and one
 * decoder serves every tokenizer (a folder of many small logs makes one per log). `ignoreBOM` keeps a leading BOM
 * in the text, so that its three bytes can be accounted for as a skip.
 */
const lineDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

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
  /** Decodes the skipped bytes for the excerpt and the string state; a piece may end inside a character. */
  decoder: TextDecoder;
}

/** `first` followed by `second`, in a new array. */
function joinBytes(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}

/** What a tokenizer does, as functions over its state; {@link Tokenizer} is its public face. */
interface TokenizerParts {
  feed(chunk: NdjsonChunk): readonly NdjsonItem[];
  end(): readonly NdjsonItem[];
  reset(): void;
  bufferedBytes(): number;
}

/**
 * A tokenizer's public face: a class, so that `bufferedBytes` is a getter on one shared prototype. As a getter in an
 * object literal it would be a closure of its own, giving every tokenizer a hidden class of its own, and V8 keeps
 * such an object's closures, with all the tokenizer's state they reach, until a full collection, however soon the
 * tokenizer is dropped: over a folder of small logs, most of what the commands spent collecting garbage.
 */
class Tokenizer implements NdjsonTokenizer {
  readonly #parts: TokenizerParts;

  constructor(parts: TokenizerParts) {
    this.#parts = parts;
  }

  feed(chunk: NdjsonChunk): readonly NdjsonItem[] {
    return this.#parts.feed(chunk);
  }

  end(): readonly NdjsonItem[] {
    return this.#parts.end();
  }

  reset(): void {
    this.#parts.reset();
  }

  get bufferedBytes(): number {
    return this.#parts.bufferedBytes();
  }
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
 * @throws RangeError when `maxRecordBytes` is not a positive integer or is above {@link MAX_RECORD_BYTES_CAP}.
 */
export function createNdjsonTokenizer(options: NdjsonTokenizerOptions = {}): NdjsonTokenizer {
  const maxRecordBytes = resolveMaxRecordBytes(options.maxRecordBytes);
  const objectsOnly = options.objectsOnly ?? false;
  const lazy = lazyStringBounds(options.lazyStrings);
  const { onRecord, onProblem, onSkip, skipRecord, parseRecord, readTextLine, takeLine } = options;
  const readsDocuments = options.documents ?? false;

  // Bytes of a byte order mark begun at the start of the stream, until enough have come to tell.
  let bomPrefix: Uint8Array = NO_BYTES;
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
  // Bytes of the current physical line seen so far when it began in an earlier chunk, decoded once its LF arrives.
  // Held as bytes, not text, so that a long line is never built as one string unless someone reads it whole (see
  // lazy-strings.ts).
  const heldLine = createHeldLine();
  // Set while an oversize record is skipped up to the next LF; nothing of it is held.
  let skipping: Skip | null = null;
  let ended = false;
  // Items no callback took, returned from the current feed/end call.
  let collected: NdjsonItem[] = [];
  // With `documents`: the first bytes, held until they tell lines from a document, and the document's reader.
  let sniffer = readsDocuments ? createDocumentSniffer(maxRecordBytes) : undefined;
  let sniffed: Uint8Array = NO_BYTES;
  let sniffedFrom = 0;
  let document: DocumentReader | undefined;

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
  function readLine(
    text: string,
    contentEnd: number,
    end: number,
    terminated: boolean,
    bytes: Uint8Array,
    byteStart: number,
    tried: boolean,
  ): void {
    if (resync.isOpen()) {
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
    if (!tried && takeLine !== undefined) {
      const cr = terminated && text.charCodeAt(length - 1) === CR ? 1 : 0;
      const byteEnd = byteStart + contentEnd - lineStart - cr;
      if (offerLine(takeLine, viewOf(bytes, byteStart, byteEnd, end))) return;
    }
    let value = parseRecord === undefined ? undefined : parseRecord(withoutCr(text, terminated));
    if (value === undefined) {
      // A line of output (a prompt, a log line) is never JSON. Not handing it to `JSON.parse` saves a throw, which
      // costs some ten times what parsing a record does.
      if (text.charCodeAt(0) !== LEFT_BRACE && !startsLikeJson(text)) {
        readUnparsedLine(text, end, terminated, undefined);
        return;
      }
      try {
        value = JSON.parse(text);
      } catch (error) {
        readUnparsedLine(text, end, terminated, error);
        return;
      }
    }
    emitValue(value, text, lineNumber, lineStart, end, terminated);
  }

  // The one view of a line given to `takeLine`, filled anew for each line: taking a line allocates nothing.
  const lineView: NdjsonLineView = {
    decode: (start, end) => lineDecoder.decode(lineView.bytes.subarray(start, end)),
    bytes: NO_BYTES,
    byteStart: 0,
    byteEnd: 0,
    line: 0,
    offset: 0,
    length: 0,
  };

  /**
   * The view of the current line, found at that range of `bytes` and ending at input offset `end` (terminator
   * included).
   */
  function viewOf(bytes: Uint8Array, byteStart: number, byteEnd: number, end: number): NdjsonLineView {
    lineView.bytes = bytes;
    lineView.byteStart = byteStart;
    lineView.byteEnd = byteEnd;
    lineView.line = lineNumber;
    lineView.offset = lineStart;
    lineView.length = end - lineStart;
    return lineView;
  }

  /**
   * Whether `takeLine` took the line of a chunk from byte `from` to the LF at `lfByte`, tried before the line is
   * decoded, as the lines taken are most lines. Only a line the fast path would give it: no record open, no filter to
   * ask first, within the limit and not blank.
   */
  function tookWholeLine(chunk: Uint8Array, from: number, lfByte: number, end: number): boolean {
    if (takeLine === undefined || resync.isOpen() || skipRecord !== undefined) return false;
    const contentBytes = lfByte - from;
    if (contentBytes > maxRecordBytes || contentBytes === 0) return false;
    const cr = chunk[lfByte - 1] === CR ? 1 : 0;
    if (contentBytes === cr) return false;
    return offerLine(takeLine, viewOf(chunk, from, lfByte - cr, end));
  }

  /** Gives `view` to `take`, then lets go of its bytes: the view outlives the line, and must not hold it. */
  function offerLine(take: (view: NdjsonLineView) => boolean, view: NdjsonLineView): boolean {
    const took = take(view);
    view.bytes = NO_BYTES;
    return took;
  }

  /** A line's text as the consumer's readers see it: without the CR of a CRLF. */
  function withoutCr(text: string, terminated: boolean): string {
    return terminated && text.charCodeAt(text.length - 1) === CR ? text.slice(0, -1) : text;
  }

  /**
   * A line that began in an earlier chunk, as bytes. A long one is parsed with its long strings left undecoded when
   * that is asked for and possible; otherwise it is decoded and read as any line.
   */
  function readHeldLine(bytes: Uint8Array, contentEnd: number, end: number, terminated: boolean): void {
    if (lazy !== undefined && bytes.length >= lazy.lineBytes && mayReadLazily(contentEnd)) {
      // A CR right before the LF belongs to the line terminator, not to the record's text.
      const body = terminated && bytes[bytes.length - 1] === CR ? bytes.subarray(0, -1) : bytes;
      // `bytes` may be a view of the held-line buffer: the record keeps the copy the lazy strings read.
      const parsed = parseWithLazyStrings(body, lineDecoder, lazy.stringBytes);
      if (parsed !== undefined && (!objectsOnly || isJsonObject(parsed.value))) {
        emitRecord(lazyRecord(parsed.value, parsed.bytes, lineNumber, lineStart, end - lineStart));
        return;
      }
    }
    readLine(lineDecoder.decode(bytes), contentEnd, end, terminated, bytes, 0, false);
  }

  /** Whether the fast path would parse this line as it is: no record open, within the limit, no filter to ask. */
  function mayReadLazily(contentEnd: number): boolean {
    return !resync.isOpen() && skipRecord === undefined && contentEnd - lineStart <= maxRecordBytes;
  }

  /** A record whose text is decoded only when read, as its long strings are. */
  function lazyRecord(value: unknown, body: Uint8Array, line: number, offset: number, length: number) {
    const record: NdjsonRecord = { value, line, offset, length, text: '' };
    defineLazyText(record, 'text', body);
    return record;
  }

  /**
   * Slow path: a line that `JSON.parse` rejected is blank, the start of a multi-line record, or a problem.
   * `parseError` is what `JSON.parse` threw, or `undefined` when the line does not start like JSON and so was not
   * parsed: no branch below that reads the error is taken for such a line.
   */
  function readUnparsedLine(text: string, end: number, terminated: boolean, parseError: unknown): void {
    if (isJsonWhitespace(text)) {
      emitSkip('blank-line', lineNumber, lineStart, end - lineStart);
      return;
    }
    const first = firstSignificantChar(text);
    if (!mayOpenInString(first)) {
      const value = readTextLine === undefined ? undefined : readTextLine(withoutCr(text, terminated));
      if (value !== undefined) emitValue(value, text, lineNumber, lineStart, end, terminated);
      else if (startsLikeJson(text))
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
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    // Streaming: a character cut at the end of the held bytes is completed by the next piece.
    const held = decoder.decode(takeLineBytes(NO_BYTES, consumed - lineStart), { stream: true });
    if (open === null) {
      skipping = { line: lineNumber, offset: lineStart, excerpt: headOf([held]), state: undefined, decoder };
    } else {
      const excerpt = headOf([open.head, '\n', held]);
      const state = scanStringState(held, INSIDE);
      skipping = { line: open.line, offset: open.offset, excerpt, state, decoder };
    }
  }

  /** A piece of the line being skipped: its excerpt grows to what an excerpt shows, its string state is followed. */
  function skipPiece(skip: Skip, bytes: Uint8Array, last: boolean): void {
    const piece = skip.decoder.decode(bytes, { stream: !last });
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

  /**
   * The held line's bytes with `lastPiece` after them, as the `contentLength` bytes the line has: the bytes of a byte
   * order mark, held before the decoder told it apart from the line, are dropped from the front. A view of the
   * held-line buffer: read it before the next piece is held, or copy it.
   */
  function takeLineBytes(lastPiece: Uint8Array, contentLength: number): Uint8Array {
    const joined = heldLine.take(lastPiece);
    return joined.length === contentLength ? joined : joined.subarray(joined.length - contentLength);
  }

  /**
   * Reads a chunk byte-first: line feeds are found in the bytes, the lines complete in this chunk are decoded with one
   * decode, and the bytes of a line still open are held undecoded until its line feed comes.
   */
  function feedBytes(input: Uint8Array): void {
    // Any chunking reads the same: a chunk of a whole file, past the longest string an engine makes (512 MiB in V8),
    // is read in slices, so that its complete lines are never decoded into one string.
    if (input.length <= MAX_SLICE_BYTES) feedSlice(input);
    else
      for (let from = 0; from < input.length; from += MAX_SLICE_BYTES)
        feedSlice(input.subarray(from, from + MAX_SLICE_BYTES));
  }

  function feedSlice(input: Uint8Array): void {
    const base = consumed;
    consumed += input.length;
    const start = atStreamStart ? streamStart(input) : { chunk: input, base };
    if (start === null) return;
    if (document !== undefined) document.feed(start.chunk, start.base);
    else if (sniffer !== undefined) sniff(sniffer, start.chunk, start.base);
    else readChunkLines(start.chunk, start.base);
  }

  /** The first bytes of a stream that may be a document, held until they tell; then read as what they are. */
  function sniff(looking: DocumentSniffer, chunk: Uint8Array, base: number): void {
    const layout = looking.look(chunk);
    if (sniffed.length === 0) {
      sniffedFrom = base;
      // Most streams tell at their first bytes: the chunk is read as it is, with no copy.
      if (layout !== undefined) {
        readSniffed(layout === 'document', chunk);
        return;
      }
      sniffed = copyOf(chunk);
    } else sniffed = joinBytes(sniffed, chunk);
    if (layout !== undefined) readSniffed(layout === 'document', sniffed);
  }

  function readSniffed(isDocument: boolean, bytes: Uint8Array): void {
    sniffer = undefined;
    sniffed = NO_BYTES;
    if (isDocument) {
      document = createDocumentReader(maxRecordBytes, documentSink, sniffedFrom, lineNumber);
      document.feed(bytes, sniffedFrom);
    } else if (bytes.length > 0) readChunkLines(bytes, sniffedFrom);
  }

  const documentSink = {
    value(value: unknown, text: string, line: number, offset: number, end: number): void {
      emitValue(value, text, line, offset, end, false);
    },
    problem: emitProblem,
    skip(line: number, offset: number, length: number): void {
      emitSkip('document-syntax', line, offset, length);
    },
  };

  function readChunkLines(chunk: Uint8Array, base: number): void {
    const firstLf = chunk.indexOf(LF);
    if (firstLf === -1) {
      holdPiece(chunk);
      return;
    }
    let byteFrom = 0;
    // The line that began in an earlier chunk ends at the first line feed.
    if (skipping !== null || heldLine.heldBytes() > 0) {
      endHeldLine(chunk.subarray(0, firstLf), base + firstLf);
      byteFrom = firstLf + 1;
    }
    const lastLf = chunk.lastIndexOf(LF);
    if (lastLf >= byteFrom) readWholeLines(chunk, byteFrom, lastLf, base);
    holdPiece(chunk.subarray(lastLf + 1));
  }

  /**
   * The lines from `byteFrom` to the line feed at `lastLf`, all complete in this chunk, each decoded on its own. A
   * string of its own per line, not a slice of the chunk's text: one character past Latin-1 (a curly quote, an
   * emoji) makes a whole decoded chunk two bytes a character, and every line cut from it, so that `JSON.parse` and
   * the collector work on twice the bytes; a line's own string is one byte a character unless it holds such a
   * character. Measured on recorded captures, the plain loop reads lines decoded one by one in about half the time
   * it takes over slices of 64 KiB decoded chunks. A line `takeLine` takes is not decoded at all.
   */
  function readWholeLines(chunk: Uint8Array, byteFrom: number, lastLf: number, base: number): void {
    for (let from = byteFrom; from <= lastLf; ) {
      const lfByte = chunk.indexOf(LF, from);
      const end = base + lfByte + 1;
      if (!tookWholeLine(chunk, from, lfByte, end))
        readLine(
          lineDecoder.decode(chunk.subarray(from, lfByte)),
          base + lfByte,
          end,
          true,
          chunk,
          from,
          true,
        );
      lineStart = end;
      lineNumber++;
      from = lfByte + 1;
    }
  }

  /** The held (or skipped) line's last piece, up to its line feed at input offset `lfOffset`. */
  function endHeldLine(lastPiece: Uint8Array, lfOffset: number): void {
    const end = lfOffset + 1;
    if (skipping !== null) {
      skipPiece(skipping, lastPiece, true);
      endSkippedLine(skipping, end);
    } else readHeldLine(takeLineBytes(lastPiece, lfOffset - lineStart), lfOffset, end, true);
    lineStart = end;
    lineNumber++;
  }

  /** Bytes of a line whose line feed has not come yet: held, or passed over while skipping. */
  function holdPiece(piece: Uint8Array): void {
    if (skipping !== null) {
      skipPiece(skipping, piece, false);
      return;
    }
    if (piece.length > 0) heldLine.append(piece);
    if (consumed - heldFrom() > maxRecordBytes) boundHeldBytes();
  }

  /**
   * The first bytes of the stream: a byte order mark is passed over (reported as a skip). Until three bytes have
   * come, a prefix of one waits; `null` then, as there is nothing to read yet.
   */
  function streamStart(input: Uint8Array): { chunk: Uint8Array; base: number } | null {
    const bytes = bomPrefix.length === 0 ? input : joinBytes(bomPrefix, input);
    if (bytes.length < BYTE_ORDER_MARK_BYTES && startsLikeByteOrderMark(bytes)) {
      bomPrefix = copyOf(bytes);
      return null;
    }
    atStreamStart = false;
    bomPrefix = NO_BYTES;
    if (bytes.length < BYTE_ORDER_MARK_BYTES || !startsLikeByteOrderMark(bytes))
      return { chunk: bytes, base: 0 };
    emitSkip('byte-order-mark', 1, 0, BYTE_ORDER_MARK_BYTES);
    lineStart = BYTE_ORDER_MARK_BYTES;
    return { chunk: bytes.subarray(BYTE_ORDER_MARK_BYTES), base: BYTE_ORDER_MARK_BYTES };
  }

  /** Offset of the first input byte still held: the open record's start, or the current line's. */
  function heldFrom(): number {
    return resync.heldFrom() ?? lineStart;
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

  return new Tokenizer({
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
      if (atStreamStart) {
        // Fewer bytes than a byte order mark, all of them like its start: they are the last line.
        atStreamStart = false;
        if (bomPrefix.length > 0) heldLine.append(bomPrefix);
        bomPrefix = NO_BYTES;
      }
      // Bytes that never told lines from a document are lines.
      if (sniffer !== undefined) readSniffed(false, sniffed);
      if (document !== undefined) {
        document.end(consumed);
        return drain();
      }
      const skip = skipping;
      if (skip !== null) {
        skipPiece(skip, NO_BYTES, true);
        skipping = null;
        reportOversize(skip.line, skip.offset, consumed, skip.excerpt);
      } else if (consumed > lineStart) {
        readHeldLine(takeLineBytes(NO_BYTES, consumed - lineStart), consumed, consumed, false);
      }
      resync.finish(consumed);
      return drain();
    },

    bufferedBytes: (): number => {
      if (document !== undefined) return document.bufferedBytes();
      return skipping === null && !atStreamStart ? consumed - heldFrom() : 0;
    },

    reset(): void {
      bomPrefix = NO_BYTES;
      pendingHighSurrogate = '';
      consumed = 0;
      lineStart = 0;
      lineNumber = 1;
      atStreamStart = true;
      heldLine.clear();
      skipping = null;
      resync.reset();
      ended = false;
      collected = [];
      sniffer = readsDocuments ? createDocumentSniffer(maxRecordBytes) : undefined;
      sniffed = NO_BYTES;
      document = undefined;
    },
  });
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
