/**
 * Taking the lines of the hottest records without building their value at all, and without `JSON.parse`. Building a small record's value from
 * a template's captures costs about what `JSON.parse` costs (see `record-templates.ts`); what a dialect makes of a
 * `thinking` delta, though, is one event from one field (its `text`) and a session id that stays the same for
 * thousands of lines. So a line template here proves a line to be exactly a record of a learnt layout and captures
 * the field the dialect reads and its fixed fields (the session id, compared with the last two seen rather than read
 * again); fields the dialect's events do not depend on (a timestamp) are checked and passed over.
 *
 * What a template accepts is what `record-templates.ts` describes (the learnt punctuation, keys and constants only,
 * any JSON string, whole numbers of at most 15 digits), so a line it takes is a record `JSON.parse` reads, of the
 * shape the dialect's schema describes: valid, strict or open, with no problem to report.
 *
 * A template is checked against the line's bytes, not its text: a record of one token is a few bytes of prefix, a
 * short string and a session id, and a loop over bytes checks that in a fraction of what a regular expression or
 * `JSON.parse` spends on the line's characters. The decoder never folds an ASCII byte into a character of its own
 * (an invalid sequence becomes U+FFFD and the byte after it is read again), so a quote, a backslash or a control
 * byte is that character in the text too, and any other byte is part of a character `JSON.parse` takes in a string.
 */

import type { NdjsonLineView } from '@cursor-stream/ndjson';
import type { JsonObject } from '../dialect.ts';
import { followSpacing } from './learnt-spacing.ts';
import type { ObjectShape, RecordShape, ValueShape } from './record-shape.ts';
import { createLearntTemplates, fits, shapeOf } from './record-templates.ts';

/** A hot record: its shape, the string field the dialect's events take from each line, the fields kept as learnt. */
export interface LineLayout {
  readonly shape: RecordShape;
  /**
   * Where the string read from each line is: a key, or a path of keys and indexes into the record (a delta's `text`;
   * an assistant message's `message.content[0].text`).
   */
  readonly read: readonly (string | number)[];
  /**
   * Top-level string fields the events depend on besides the read one, whose value repeats for many lines (a session
   * id): a line's is compared with the last two values seen, and read only when it is neither.
   */
  readonly fixed: readonly string[];
  /**
   * Whether a record of the shape may be learnt, when not every one may: one whose events the read field and the
   * kept fields do not decide alone (an assistant message of several blocks) is left to the usual path.
   */
  readonly learns?: (record: JsonObject) => boolean;
}

/** A line taken by a template; valid until the next line is taken. */
export interface TakenLine<Layout extends LineLayout = LineLayout> {
  /** The layout of the line. */
  layout: Layout;
  /**
   * The line's record as far as its events depend on it: its constants and fixed fields as the line holds them, its
   * read field and any other field as in the record the layout was learnt from.
   */
  record: JsonObject;
  /** The value of the read field in this line, as `JSON.parse` gives it. */
  value: string;
}

/** What takes the lines of a dialect's hot records, learning their layouts from records parsed the usual way. */
export interface LineReader<Layout extends LineLayout = LineLayout> {
  /** The line's record and read field when the line is one of a learnt layout; `undefined` otherwise. */
  take(line: NdjsonLineView): TakenLine<Layout> | undefined;
  /** Learns the layout of `record`, parsed from `text` by `JSON.parse`, if it is one of the hot ones. Never throws. */
  learn(text: string, record: JsonObject): void;
}

/**
 * Bytes a line is compared with, also as little-endian 32-bit words (the whole ones): a literal of a template is some
 * 20 to 50 bytes and a session id 36, compared four at a time.
 */
interface ExpectedBytes {
  readonly bytes: Uint8Array;
  readonly words: Uint32Array;
}

/** Made for every new session id: read by hand, as a view of the bytes would cost more to make than to read. */
function expectedBytes(bytes: Uint8Array): ExpectedBytes {
  const words = new Uint32Array(bytes.length >>> 2);
  for (let index = 0, at = 0; index < words.length; index++, at += 4)
    words[index] =
      ((bytes[at] as number) |
        ((bytes[at + 1] as number) << 8) |
        ((bytes[at + 2] as number) << 16) |
        ((bytes[at + 3] as number) << 24)) >>>
      0;
  return { bytes, words };
}

const NO_BYTES = expectedBytes(new Uint8Array(0));

/**
 * A fixed field of a template: its key, its bytes in the last line taken, and in the line before whose value differed
 * (two runs logged into one file take turns line by line).
 */
interface FixedField {
  readonly key: string;
  last: ExpectedBytes;
  previous: ExpectedBytes;
}

/** Where `matches` found a fixed field's value: the last line's, the one before, or a value of its own (its start). */
const LAST_VALUE = -1;
const PREVIOUS_VALUE = -2;

/** What one piece of a layout is: bytes written as learnt, a string, a whole number. */
const LITERAL = 0;
const STRING = 1;
const NUMBER = 2;

/** What is done with a string: checked only, read (the read field), compared with the last line's (a fixed field). */
const CHECKED = 0;
const READ = 1;
const FIXED = 2;

interface Piece {
  readonly kind: typeof LITERAL | typeof STRING | typeof NUMBER;
  /** A literal's bytes. */
  readonly literal: ExpectedBytes;
  readonly use: typeof CHECKED | typeof READ | typeof FIXED;
  /** A string the schema wants at least one character in. */
  readonly nonEmpty: boolean;
  /** Index of a fixed field in its template's `fixed`. */
  readonly fixed: number;
}

interface LineTemplate<Layout extends LineLayout> {
  readonly layout: Layout;
  readonly pieces: readonly Piece[];
  readonly fixed: readonly FixedField[];
  /**
   * Where each fixed field's string was found in the line being matched, until the match is done; a start of
   * {@link LAST_VALUE} or {@link PREVIOUS_VALUE} for a field whose value is one of those kept.
   */
  readonly fixedStarts: number[];
  readonly fixedEnds: number[];
  /** The record of the last line taken: a new one whenever a fixed field changes, so events may keep it. */
  record: JsonObject;
  /** The record of the fields' previous values. */
  previousRecord: JsonObject;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LOWEST_PRINTABLE = 0x20;
const LOWEST_WIDE = 0x80;
const DIGIT_ZERO = 0x30;
const DIGIT_NINE = 0x39;
/** Digits of a whole number read, at most: every such number is exact in a double. */
const MAX_DIGITS = 15;

/** Bytes that may follow a backslash (`u` is checked apart), by value. */
const SIMPLE_ESCAPES = new Uint8Array(128);
for (const character of '"\\/bfnrt') SIMPLE_ESCAPES[character.charCodeAt(0)] = 1;
/** Hexadecimal digits, by value. */
const HEX_DIGITS = new Uint8Array(128);
for (const character of '0123456789abcdefABCDEF') HEX_DIGITS[character.charCodeAt(0)] = 1;
const LETTER_U = 0x75;

// What the last string scanned held besides plain ASCII: set by `stringEnd`, read right after.
let scannedEscape = false;
let scannedWide = false;

/**
 * The index of the quote that closes the JSON string whose content starts at `at`, or -1 unless everything up to it
 * is what `JSON.parse` accepts in a string: no raw control character, only valid escapes.
 */
function stringEnd(bytes: Uint8Array, at: number, end: number): number {
  scannedEscape = false;
  scannedWide = false;
  while (at < end) {
    const byte = bytes[at] as number;
    if (byte === QUOTE) return at;
    if (byte < LOWEST_PRINTABLE) return -1;
    if (byte === BACKSLASH) {
      scannedEscape = true;
      const escaped = at + 1 < end ? (bytes[at + 1] as number) : 0;
      if (escaped === LETTER_U) {
        if (at + 6 > end) return -1;
        for (let digit = at + 2; digit < at + 6; digit++)
          if (HEX_DIGITS[bytes[digit] as number] !== 1) return -1;
        at += 6;
        continue;
      }
      if (SIMPLE_ESCAPES[escaped] !== 1) return -1;
      at += 2;
      continue;
    }
    if (byte >= LOWEST_WIDE) scannedWide = true;
    at++;
  }
  return -1;
}

/** The index past a whole number of at most 15 digits, without a leading zero, starting at `at`; -1 if none. */
function numberEnd(bytes: Uint8Array, at: number, end: number): number {
  const first = at;
  while (at < end) {
    const byte = bytes[at] as number;
    if (byte < DIGIT_ZERO || byte > DIGIT_NINE) break;
    at++;
  }
  const digits = at - first;
  if (digits === 0 || digits > MAX_DIGITS || (digits > 1 && bytes[first] === DIGIT_ZERO)) return -1;
  return at;
}

// The bytes last compared with, and a view of them: a chunk holds many lines.
let viewedBytes: Uint8Array = new Uint8Array(0);
let bytesView = new DataView(viewedBytes.buffer);

/** Whether `bytes` hold `expected` at `at`; the caller has made sure they reach that far. */
function sameBytes(bytes: Uint8Array, at: number, expected: ExpectedBytes): boolean {
  if (bytes !== viewedBytes) {
    bytesView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    viewedBytes = bytes;
  }
  const { words } = expected;
  for (let index = 0; index < words.length; index++)
    if (bytesView.getUint32(at + index * 4, true) !== words[index]) return false;
  const tail = expected.bytes;
  for (let index = words.length * 4; index < tail.length; index++)
    if (bytes[at + index] !== tail[index]) return false;
  return true;
}

/** The index of the quote closing the string at `at` when its content is `value`'s bytes; -1 otherwise. */
function closeOfKept(bytes: Uint8Array, at: number, end: number, value: ExpectedBytes): number {
  const close = at + value.bytes.length;
  return close < end && bytes[close] === QUOTE && sameBytes(bytes, at, value) ? close : -1;
}

// Where the read field's string was found in the line last matched, and whether it holds an escape or a byte past
// ASCII.
let readStart = 0;
let readEnd = 0;
let readEscaped = false;
let readWide = false;

/**
 * Whether the line is exactly one of `template`'s layout. Every string but the read one must be ASCII: a fixed
 * field's value is read from its bytes as such (see `recordOf`).
 */
function matches(template: LineTemplate<LineLayout>, line: NdjsonLineView): boolean {
  const { bytes, byteEnd } = line;
  const pieces = template.pieces;
  let at = line.byteStart;
  for (let index = 0; index < pieces.length; index++) {
    const piece = pieces[index] as Piece;
    if (piece.kind === LITERAL) {
      const expected = piece.literal;
      const length = expected.bytes.length;
      if (at + length > byteEnd || !sameBytes(bytes, at, expected)) return false;
      at += length;
    } else if (piece.kind === STRING) {
      if (piece.use === FIXED) {
        // Most lines repeat a value kept, checked when it was read: compared as the literal it now is.
        const field = template.fixed[piece.fixed] as FixedField;
        const kept = closeOfKept(bytes, at, byteEnd, field.last);
        if (kept !== -1) {
          template.fixedStarts[piece.fixed] = LAST_VALUE;
          at = kept;
          continue;
        }
        const keptBefore = closeOfKept(bytes, at, byteEnd, field.previous);
        if (keptBefore !== -1) {
          template.fixedStarts[piece.fixed] = PREVIOUS_VALUE;
          at = keptBefore;
          continue;
        }
      }
      const close = stringEnd(bytes, at, byteEnd);
      if (close === -1 || (piece.nonEmpty && close === at)) return false;
      if (piece.use === READ) {
        readStart = at;
        readEnd = close;
        readEscaped = scannedEscape;
        readWide = scannedWide;
      } else if (scannedWide) return false;
      else if (piece.use === FIXED) {
        template.fixedStarts[piece.fixed] = at;
        template.fixedEnds[piece.fixed] = close;
      }
      // The closing quote begins the literal that follows.
      at = close;
    } else {
      at = numberEnd(bytes, at, byteEnd);
      if (at === -1) return false;
    }
  }
  return at === byteEnd;
}

/**
 * A copy of the bytes from `start` to `end`: a line's bytes are the reader's, which may write the next chunk over
 * them (and a Node `Buffer`'s `slice` is a view, not a copy).
 */
function copyOf(bytes: Uint8Array, start: number, end: number): Uint8Array {
  return new Uint8Array(bytes.subarray(start, end));
}

/**
 * Below this many bytes, an ASCII string is read a byte at a time: a call to the decoder costs more than the loop, and
 * a string this short is made flat, not a chain of joins, however it is built.
 */
const SHORT_ASCII_BYTES = 13;

/**
 * The value of the JSON string whose content is the bytes from `start` to `end` of `line`: a short ASCII one read
 * here, any other decoded, and an escape decoded by `JSON.parse` itself.
 */
function stringValue(
  line: NdjsonLineView,
  start: number,
  end: number,
  escaped: boolean,
  wide: boolean,
): string {
  let content: string;
  if (wide || end - start >= SHORT_ASCII_BYTES) content = line.decode(start, end);
  else {
    const { bytes } = line;
    content = '';
    for (let at = start; at < end; at++) content += String.fromCharCode(bytes[at] as number);
  }
  return escaped ? (JSON.parse(`"${content}"`) as string) : content;
}

/**
 * The record of `template` for the line last matched: the last line's, or the one before's when the line takes turns
 * with it, and otherwise a new record with the line's values (a new session), kept as the last.
 */
function recordOf(template: LineTemplate<LineLayout>, line: NdjsonLineView): JsonObject {
  const { fixed, fixedStarts } = template;
  let onlyLast = true;
  let onlyPrevious = true;
  for (let index = 0; index < fixed.length; index++) {
    const start = fixedStarts[index] as number;
    if (start !== LAST_VALUE) onlyLast = false;
    if (start !== PREVIOUS_VALUE) onlyPrevious = false;
  }
  if (onlyLast) return template.record;
  if (onlyPrevious) {
    for (let index = 0; index < fixed.length; index++) {
      const field = fixed[index] as FixedField;
      const last = field.last;
      field.last = field.previous;
      field.previous = last;
    }
    const last = template.record;
    template.record = template.previousRecord;
    template.previousRecord = last;
    return template.record;
  }
  const { bytes } = line;
  let record = template.record;
  for (let index = 0; index < fixed.length; index++) {
    const field = fixed[index] as FixedField;
    const start = fixedStarts[index] as number;
    const last = field.last;
    if (start === PREVIOUS_VALUE) {
      field.last = field.previous;
      record = { ...record, [field.key]: template.previousRecord[field.key] };
    } else if (start !== LAST_VALUE) {
      const end = template.fixedEnds[index] as number;
      field.last = expectedBytes(copyOf(bytes, start, end));
      // A fixed field's string is ASCII (see `matches`).
      const value = stringValue(line, start, end, bytes.subarray(start, end).includes(BACKSLASH), false);
      record = { ...record, [field.key]: value };
    }
    // The values before this line, all of them: the previous record is the last one.
    field.previous = last;
  }
  template.previousRecord = template.record;
  template.record = record;
  return record;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** A view of the whole of `text`, for the lines a template is learnt from. */
function viewOfText(text: string): NdjsonLineView {
  const bytes = encoder.encode(text);
  return {
    decode: (start, end) => decoder.decode(bytes.subarray(start, end)),
    bytes,
    byteStart: 0,
    byteEnd: bytes.length,
    line: 0,
    offset: 0,
    length: bytes.length,
  };
}

/** Whether `path` is `read`: the same keys and indexes. */
function isReadPath(path: readonly (string | number)[], read: readonly (string | number)[]): boolean {
  return path.length === read.length && path.every((step, index) => step === read[index]);
}

/**
 * The template of `record`'s layout: `undefined` unless every value is one the template can take (constants,
 * strings, whole numbers, and objects and arrays of them, each array as long as learnt) and `text` is written as
 * `JSON.stringify` writes the record, but for whitespace between tokens, which the template keeps as `text` has it
 * (see `learnt-spacing.ts`).
 */
function templateOf<Layout extends LineLayout>(
  record: JsonObject,
  layout: Layout,
  text: string,
): LineTemplate<Layout> | undefined {
  const pieces: Piece[] = [];
  const spacing = followSpacing(text);
  let written = '';
  // Literals are ASCII, as the rest of a line but its read string must be (see `matches`).
  let ascii = true;
  const endLiteral = (): void => {
    if (written === '') return;
    const bytes = encoder.encode(written);
    if (bytes.length !== written.length) ascii = false;
    pieces.push({ kind: LITERAL, literal: expectedBytes(bytes), use: CHECKED, nonEmpty: false, fixed: -1 });
    written = '';
  };
  let read = false;
  const fixed: FixedField[] = [];

  function addString(path: readonly (string | number)[], nonEmpty: boolean): void {
    written += spacing.token('"');
    endLiteral();
    spacing.skipString();
    const key = path.length === 1 ? path[0] : undefined;
    const use = isReadPath(path, layout.read)
      ? READ
      : typeof key === 'string' && layout.fixed.includes(key)
        ? FIXED
        : CHECKED;
    if (use === READ) read = true;
    if (use === FIXED) fixed.push({ key: key as string, last: NO_BYTES, previous: NO_BYTES });
    const at = use === FIXED ? fixed.length - 1 : -1;
    pieces.push({ kind: STRING, literal: NO_BYTES, use, nonEmpty, fixed: at });
    written += spacing.token('"');
  }

  /** Adds `value` of `shape` at `path`; false when it is of a kind no template takes. */
  function addValue(value: unknown, shape: ValueShape, path: readonly (string | number)[], tested: boolean) {
    switch (shape.kind) {
      case 'const':
        written += spacing.token(JSON.stringify(value));
        return true;
      case 'string':
        // A string that decides another field's requirement is kept as learnt, so every line taken fits the shape.
        if (tested) written += spacing.token(JSON.stringify(value));
        else addString(path, shape.nonEmpty);
        return true;
      case 'whole-number':
        written += spacing.token('');
        endLiteral();
        spacing.skipNumber();
        pieces.push({ kind: NUMBER, literal: NO_BYTES, use: CHECKED, nonEmpty: false, fixed: -1 });
        return true;
      case 'object':
        return addObject(value as JsonObject, shape.shape, path);
      case 'array': {
        const items = value as readonly unknown[];
        written += spacing.token('[');
        for (let index = 0; index < items.length; index++) {
          if (index > 0) written += spacing.token(',');
          if (!addValue(items[index], shape.items, [...path, index], false)) return false;
        }
        written += spacing.token(']');
        return true;
      }
    }
  }

  function addObject(value: JsonObject, shape: ObjectShape, path: readonly (string | number)[]): boolean {
    const tested = new Set(shape.requiredWhen.map((condition) => condition.field));
    written += spacing.token('{');
    const keys = Object.keys(value);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      const field = Object.hasOwn(shape.fields, key) ? shape.fields[key] : undefined;
      if (field === undefined) return false;
      if (index > 0) written += spacing.token(',');
      written += spacing.token(JSON.stringify(key)) + spacing.token(':');
      if (!addValue(value[key], field, [...path, key], tested.has(key))) return false;
    }
    written += spacing.token('}');
    return true;
  }

  if (!addObject(record, layout.shape.shape, [])) return undefined;
  // Whitespace after the record: the line ends where its template does.
  written += spacing.token('');
  endLiteral();
  if (!read || !ascii) return undefined;
  const template: LineTemplate<Layout> = {
    layout,
    pieces,
    fixed,
    fixedStarts: fixed.map(() => 0),
    fixedEnds: fixed.map(() => 0),
    record,
    previousRecord: record,
  };
  // The line learnt from must be one of its own layout: written as `JSON.stringify` writes but for its spacing, ASCII
  // outside its read string. Matching it also keeps its fixed fields as the last ones seen, which its record holds.
  const line = viewOfText(text);
  if (!matches(template, line)) return undefined;
  for (let index = 0; index < fixed.length; index++) {
    const field = fixed[index] as FixedField;
    const start = template.fixedStarts[index] as number;
    // Otherwise the line's value is the empty one the field starts with.
    if (start >= 0)
      field.last = expectedBytes(copyOf(line.bytes, start, template.fixedEnds[index] as number));
    // The previous values are the last ones until a line differs.
    field.previous = field.last;
  }
  return template;
}

/**
 * The record of a layout, counted from 1 in each stream, that its template is learnt from by default. Learning one
 * costs about what parsing a few dozen short records does, and taking a line saves a fraction of a parse: a log that
 * holds a handful of records of a layout (most of a folder of small captures, the recording a command starts on)
 * never repays it, and a long log loses a few parses.
 */
export const LEARN_AT_RECORD = 16;

/**
 * A line reader of `layouts`, learning as a record reader does (see `createRecordReader`): at most
 * `MAX_TEMPLATES` templates, the one read most recently tried first, learning paused for longer and longer
 * after records of a hot shape it could not learn.
 *
 * @param learnAt - The record of a layout, counted from 1 in the stream, its template is learnt from.
 */
export function createLineReader<Layout extends LineLayout>(
  layouts: readonly Layout[],
  learnAt: number = LEARN_AT_RECORD,
): LineReader<Layout> {
  const shapes = layouts.map((layout) => layout.shape);
  /** Records of each layout offered to learn so far. */
  const offered = layouts.map(() => 0);
  const templates = createLearntTemplates<LineTemplate<Layout>>();
  const { list } = templates;
  const taken: TakenLine<Layout> = { layout: layouts[0] as Layout, record: {}, value: '' };

  function take(line: NdjsonLineView): TakenLine<Layout> | undefined {
    for (let index = 0; index < list.length; index++) {
      const template = list[index] as LineTemplate<Layout>;
      if (!matches(template, line)) continue;
      templates.bringForward(index);
      taken.layout = template.layout;
      taken.record = recordOf(template, line);
      taken.value = stringValue(line, readStart, readEnd, readEscaped, readWide);
      return taken;
    }
    return undefined;
  }

  function learn(text: string, record: JsonObject): void {
    if (templates.resting()) return;
    const shape = shapeOf(shapes, record);
    if (shape === undefined || !fits(record, shape.shape)) return;
    const index = shapes.indexOf(shape);
    const layout = layouts[index] as Layout;
    if (layout.learns !== undefined && !layout.learns(record)) return;
    const count = (offered[index] as number) + 1;
    offered[index] = count;
    if (count < learnAt) return;
    const line = viewOfText(text);
    if (take(line) !== undefined) return;
    templates.keep(templateOf(record, layout, text));
  }

  return { take, learn };
}
