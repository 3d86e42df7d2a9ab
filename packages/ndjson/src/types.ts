import type { LazyStringBounds } from './lazy-strings.ts';

/**
 * One JSON record of the input: usually one physical line, or several when a string value holds raw line breaks.
 *
 * @typeParam T - The type the caller expects the parsed value to have; the tokenizer does not check it.
 */
export interface NdjsonRecord<T = unknown> {
  /** The value `JSON.parse` gave for the record's text (raw control characters inside strings escaped first). */
  value: T;
  /** The record's source text, without its line terminator. Raw line breaks inside strings are kept as they were. */
  text: string;
  /** 1-based physical line on which the record starts. */
  line: number;
  /** Byte offset of the record's first byte in the input. */
  offset: number;
  /** Bytes the record covers in the input, its line terminator (LF or CRLF) included. */
  length: number;
}

/**
 * Why a stretch of input produced no record.
 *
 * - `invalid-json`: the line starts like JSON but is not (a broken record).
 * - `non-json-output`: the line does not start like JSON at all: text the producer wrote between its records (the
 *   agent's failure reason, a banner, a notice). The problem's `message` is the line itself, up to
 *   `MAX_OUTPUT_LINE_LENGTH` characters.
 * - `not-an-object`: the line is JSON but not an object, and {@link NdjsonTokenizerOptions.objectsOnly} is set.
 * - `unterminated-string`: a record ended inside a string, and a later line started a record of its own (a whole JSON
 *   text, or one continued over raw line breaks that parsed), so the open record was given up.
 * - `truncated`: the input ended inside a record.
 * - `oversize`: the record was larger than {@link NdjsonTokenizerOptions.maxRecordBytes}; it was skipped up to the
 *   next line feed.
 */
export type NdjsonProblemCode =
  | 'invalid-json'
  | 'non-json-output'
  | 'not-an-object'
  | 'unterminated-string'
  | 'truncated'
  | 'oversize';

/** A stretch of input that is not a record, located in the input. The stream goes on after it. */
export interface NdjsonProblem {
  /** What went wrong; see {@link NdjsonProblemCode}. */
  code: NdjsonProblemCode;
  /** One sentence for a person, naming the reason. */
  message: string;
  /** 1-based physical line on which the stretch starts. */
  line: number;
  /** Byte offset of the stretch's first byte in the input. */
  offset: number;
  /** Bytes the stretch covers, its line terminator included. */
  length: number;
  /** The start of the offending text, at most {@link EXCERPT_LENGTH} characters, control characters escaped. */
  excerpt: string;
}

/**
 * Input the tokenizer passed over on purpose: a blank line (empty or JSON whitespace only), the byte order mark at
 * the start, a record the caller's {@link NdjsonTokenizerOptions.skipRecord} turned down, or the brackets, commas and
 * white space between the records of a JSON document (see {@link NdjsonTokenizerOptions.documents}). Together with records
 * and problems, skips cover every input byte exactly once.
 */
export interface NdjsonSkip {
  /** What was skipped. */
  reason: 'blank-line' | 'byte-order-mark' | 'filtered' | 'document-syntax';
  /** 1-based physical line of the skipped bytes. */
  line: number;
  /** Byte offset of the first skipped byte. */
  offset: number;
  /** Number of skipped bytes, line terminator included. */
  length: number;
}

/** What the tokenizer produces, in input order. Tell the two apart with {@link isNdjsonProblem}. */
export type NdjsonItem<T = unknown> = NdjsonRecord<T> | NdjsonProblem;

/** A chunk of input: bytes (a `Uint8Array`, a Node `Buffer`) or text. Both kinds may be mixed in one stream. */
export type NdjsonChunk = Uint8Array | string;

/** Options of {@link createNdjsonTokenizer}. */
export interface NdjsonTokenizerOptions {
  /**
   * Largest record, in bytes before its line feed (a CR right before the LF counts), that the tokenizer holds. A
   * larger one is reported as `oversize` and skipped up to its end, so memory stays bounded by this number. Whether a
   * record is oversize depends on its bytes only, never on where the chunks were cut.
   *
   * @defaultValue {@link DEFAULT_MAX_RECORD_BYTES} (64 MiB)
   */
  maxRecordBytes?: number;
  /**
   * Report JSON values that are not objects (`42`, `"text"`, `[1]`, `null`) as `not-an-object` problems instead of
   * records. Every event of an agent stream is an object, so the event layer turns this on.
   *
   * @defaultValue false
   */
  objectsOnly?: boolean;
  /**
   * A cheap test on a line's text before it is parsed: return true to pass the record over unparsed (reported to
   * `onSkip` as `filtered`). Consumers that keep only some record kinds use it to skip `JSON.parse` for the rest,
   * e.g. `(text) => text.startsWith('{"type":"thinking"')`. A line that ends inside a string starts a record continued
   * on the next line: it is read as usual, never passed over. A line the test accepts is not checked further, so a
   * malformed one it accepts is skipped too (reported to `onSkip`, not as a problem).
   */
  skipRecord?: (text: string) => boolean;
  /**
   * A parser the consumer brings for records it knows by their text, tried on each complete line before `JSON.parse`:
   * it returns the very value `JSON.parse` gives for the text, or `undefined` to leave the line to `JSON.parse` (and
   * so to the usual repair and problems; a line it takes must be one `JSON.parse` accepts as it is). It sees the
   * record's text without the CR of a CRLF. A line `skipRecord` passes over is never given to it.
   */
  parseRecord?: (text: string) => unknown;
  /**
   * A reader the consumer brings for lines `JSON.parse` rejects that do not open an object, array or string, tried
   * before they are reported (as `non-json-output`, or `invalid-json` when they start like a number): for logs that
   * write their records after a prefix (`0.759 <-- {…}`, `SERVER {…}`). It returns the record the line stands for,
   * emitted with the line as its text, or `undefined` to report the line as usual. It sees the line's text without the
   * CR of a CRLF, and must not throw.
   */
  readTextLine?: (text: string) => unknown;
  /**
   * A reader the consumer brings for records it can take whole from their line, without a value: tried on each
   * complete line before {@link parseRecord} and `JSON.parse`, with the line as text and as bytes (see
   * {@link NdjsonLineView}). It returns `true` when it took the line, which must then be one `JSON.parse` accepts as it
   * is: no record is emitted for it. A line `skipRecord` passes over is never given to it, nor is a line while a
   * record that began on an earlier line is open.
   */
  takeLine?: (view: NdjsonLineView) => boolean;
  /**
   * Leave the long string values of long records undecoded until read: a record of at least
   * {@link LAZY_LINE_BYTES} that came in over several chunks is parsed without its strings of
   * {@link LAZY_STRING_BYTES} or more, each of which becomes a property that decodes its bytes on first access (and
   * the record's `text` likewise). Reading a value gives exactly what an eager parse gives; a consumer that never
   * reads a tool's output never pays for decoding it. Records that are not plain enough (an invalid escape, a raw
   * control character) are parsed eagerly, so problems are reported as without this option. Other bounds than the
   * defaults may be given (tests make every string of every held line lazy).
   *
   * @defaultValue false
   */
  lazyStrings?: boolean | Partial<LazyStringBounds>;
  /**
   * Read a stream that is one JSON document of records as the records it holds: an array of them (`jq -s .`, a JSON
   * dump of a list, `[` and `]` around the lines) or records pretty-printed over several lines (`jq .`). Such a
   * stream is told by its first bytes, which no NDJSON stream of objects starts with: a `[` followed by `{` or `]`,
   * or a `{` alone on its line. Each element of a top-level array, and each object at the top level outside one, is
   * a record (line and offset where it starts, its text as written); the brackets, commas and white space between
   * them are `document-syntax` skips; text between them is a problem of its line. An element cut short is given up at
   * the first line that starts another at its column or before it, where a pretty-printer puts no nested value. `skipRecord`, `parseRecord`, `readTextLine`, `takeLine`
   * and `lazyStrings` apply to lines only. Any other stream is read as lines, exactly as without this option.
   *
   * @defaultValue false
   */
  documents?: boolean;
  /** Called for each record. Records are returned from `feed`/`end` when this is not given. */
  onRecord?: (record: NdjsonRecord) => void;
  /** Called for each problem. Problems are returned from `feed`/`end` when this is not given. */
  onProblem?: (problem: NdjsonProblem) => void;
  /** Called for each blank line and byte order mark passed over. */
  onSkip?: (skip: NdjsonSkip) => void;
}

/** An incremental NDJSON tokenizer; see {@link createNdjsonTokenizer}. */
export interface NdjsonTokenizer {
  /**
   * Takes the next chunk of input, cut anywhere (inside a line, a multi-byte character or a CRLF).
   *
   * @returns The records and problems completed by this chunk that no callback took, in input order.
   * @throws TypeError when the chunk is neither a `Uint8Array` nor a string, or when called after {@link end}.
   */
  feed(chunk: NdjsonChunk): readonly NdjsonItem[];
  /**
   * Marks the end of input: the last line counts even without a line feed, and a record still open is reported.
   *
   * @returns What the end completed that no callback took.
   */
  end(): readonly NdjsonItem[];
  /** Forgets all state, so the tokenizer can read a new stream from its first byte. */
  reset(): void;
  /**
   * Bytes of input held for the record being read (its lines so far). Never above `maxRecordBytes` between calls:
   * a larger record is dropped and skipped to its end. The at most three bytes of a first character still being
   * decoded (a byte order mark, perhaps) belong to no line yet and are not counted.
   */
  readonly bufferedBytes: number;
}

/**
 * One complete line as {@link NdjsonTokenizerOptions.takeLine} sees it: its bytes, without its CR or LF, are
 * `bytes.subarray(byteStart, byteEnd)`, given by range in the bytes they came in, so that a line taken costs no copy.
 * The line is not decoded before it is offered: most lines taken are read for a field or two, and `decode` gives the
 * text of just those bytes. The view is the tokenizer's own, reused for the next line, and valid only during the call.
 */
export interface NdjsonLineView {
  /**
   * The text of `bytes` from `start` to `end`, decoded as the tokenizer decodes a line (an invalid sequence becomes
   * U+FFFD). Both ends must be character boundaries (next to an ASCII byte, say) for the text to be that part of the
   * line's text.
   */
  decode(start: number, end: number): string;
  /** Bytes holding the line. */
  bytes: Uint8Array;
  /** Index of the line's first byte in `bytes`. */
  byteStart: number;
  /** Index just past the line's last byte (its CR or LF excluded) in `bytes`. */
  byteEnd: number;
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line in the input. */
  offset: number;
  /** Bytes of the line, its terminator included. */
  length: number;
}
