/**
 * Reading a JSON document that holds records instead of one record per line: a capture kept as an array
 * (`jq -s .`, `[` … `]` around the lines, a JSON dump of a list) or as records pretty-printed over several lines
 * (`jq .`). Such a file is never NDJSON (a line that is `{` or `[{` alone is no record), so the tokenizer reads it so
 * only when its first bytes say so (see {@link createDocumentSniffer}), and every record it holds comes through.
 *
 * The records are the elements of the arrays at the top level, and the values at the top level outside an array:
 * each is found by following strings and brackets over the bytes, held (at most `maxRecordBytes`) and parsed whole.
 * The brackets, commas and white space between them are skipped; text between them is a problem of its own line.
 * An element that never closes is given up at the first line that starts another element at its column or before it
 * (a pretty-printer escapes every line break and puts an element's nested values further in), so a record cut short
 * loses only itself. Printed without indentation, nested values start at the element's column too: there the cut is
 * seen where no value may come (an object expects a key, or a value was just written), or a string was left open.
 * An element's column is its line's indentation, so that `}, {` starts a sibling at the column of the `}`. A value of
 * an array that is no object or array ends with its line: text the agent wrote there is one problem.
 */

import { copyOf } from './byte-copy.ts';
import { EXCERPT_LENGTH } from './json-text.ts';
import { outputLineMessage, startsLikeJson } from './line-kind.ts';
import { invalidJsonMessage, type ProblemEmitter } from './open-record-resync.ts';
import { oversizeMessage } from './record-limits.ts';
import { parseRepaired } from './record-text.ts';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LEFT_BRACE = 0x7b;
const RIGHT_BRACE = 0x7d;
const LEFT_BRACKET = 0x5b;
const RIGHT_BRACKET = 0x5d;

/** The bytes of an excerpt's characters and one more, at four bytes a character at most. */
const EXCERPT_BYTES = (EXCERPT_LENGTH + 1) * 4;

/** Bytes looked at before the sniffer decides that a stream starting with white space is lines after all. */
export const DOCUMENT_SNIFF_BYTES = 64 * 1024;

function isWhitespace(byte: number): boolean {
  return byte === SPACE || byte === LF || byte === CR || byte === TAB;
}

/** Whether a JSON value other than an object or array starts with `byte`: a string, a number, true, false, null. */
function startsScalar(byte: number): boolean {
  return (
    byte === QUOTE ||
    byte === 0x2d ||
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x74 ||
    byte === 0x66 ||
    byte === 0x6e
  );
}

/** How a stream is to be read, once its first bytes tell. */
export type StreamLayout = 'lines' | 'document';

/** Decides, byte by byte, whether a stream is a JSON document of records; see {@link createDocumentSniffer}. */
export interface DocumentSniffer {
  /**
   * Looks at the next bytes: returns the layout once they decide it (the index of the deciding byte does not depend
   * on how the stream was cut), or `undefined` while more are needed.
   */
  look(bytes: Uint8Array): StreamLayout | undefined;
}

/**
 * A stream is a document when its first significant byte is `[` followed (after white space) by `{` or `]`, or is a
 * `{` with nothing after it on its line. `[info]`, `[1,2]` and `{"type":…}` start lines as before.
 */
export function createDocumentSniffer(maxRecordBytes: number): DocumentSniffer {
  // Never more held than a record may be.
  const limit = Math.min(DOCUMENT_SNIFF_BYTES, maxRecordBytes);
  // 0: before the first significant byte; 1: after a `[`; 2: after a `{`, up to its line feed.
  let state = 0;
  let seen = 0;
  return {
    look(bytes: Uint8Array): StreamLayout | undefined {
      for (let index = 0; index < bytes.length; index++) {
        const byte = bytes[index] as number;
        seen++;
        if (seen > limit) return 'lines';
        if (state === 0) {
          if (isWhitespace(byte)) continue;
          if (byte === LEFT_BRACKET) state = 1;
          else if (byte === LEFT_BRACE) state = 2;
          else return 'lines';
        } else if (state === 1) {
          if (isWhitespace(byte)) continue;
          return byte === LEFT_BRACE || byte === RIGHT_BRACKET ? 'document' : 'lines';
        } else {
          if (byte === LF) return 'document';
          if (byte !== SPACE && byte !== TAB && byte !== CR) return 'lines';
        }
      }
      return undefined;
    },
  };
}

/**
 * Whether a stream starting with `head` (its first {@link DOCUMENT_SNIFF_BYTES} bytes or all of it, a byte order mark
 * included) is read as a JSON document by a tokenizer with `documents` set: for those who must know before reading,
 * such as a reader that would cut a file into ranges at its lines.
 */
export function startsLikeJsonDocument(head: Uint8Array): boolean {
  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  return createDocumentSniffer(DOCUMENT_SNIFF_BYTES).look(head.subarray(bom)) === 'document';
}

/** What the document reader reports, through the tokenizer's emitters. */
export interface DocumentSink {
  value(value: unknown, text: string, line: number, offset: number, end: number): void;
  problem: ProblemEmitter;
  /** Brackets, commas and white space between records. */
  skip(line: number, offset: number, length: number): void;
}

/** Reads a JSON document's records from its bytes, fed in pieces cut anywhere. */
export interface DocumentReader {
  /** The next bytes; `base` is the input offset of their first. */
  feed(bytes: Uint8Array, base: number): void;
  /** The input ended at offset `end`. */
  end(end: number): void;
  /** Bytes held for the element being read (never above the limit). */
  bufferedBytes(): number;
}

/** An element being read: a value, or text that is none (read to the end of its line). */
interface OpenElement {
  readonly isText: boolean;
  readonly line: number;
  readonly offset: number;
  /** Bytes from its line's start to its first byte: where its siblings start too. */
  readonly column: number;
  /** The depth it started at; a container element ends when the depth comes back to it. */
  readonly depth: number;
  readonly isContainer: boolean;
  pieces: Uint8Array[];
  held: number;
  /** Set once it outgrew the limit: nothing more is held but the excerpt's bytes. */
  oversize: boolean;
  /**
   * Whether its line holds nothing else but brackets and commas so far (`{` of an indented record), until a line
   * further in shows where its nested values go. Such an element is given up at a sibling's start only once a line
   * further in was seen: printed without indentation, its nested values start at its own column.
   */
  alone: boolean;
  deeperLine: boolean;
}

/**
 * Creates a reader for a document starting at input offset `start`, on line `line` (a byte order mark may come
 * before).
 */
export function createDocumentReader(
  maxRecordBytes: number,
  sink: DocumentSink,
  start: number,
  line: number,
): DocumentReader {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let lineNumber = line;
  let lineStart = start;
  // Structural depth outside strings; the elements of an array opened at depth 0 are at depth 1.
  let depth = 0;
  let inArray = false;
  let inString = false;
  let escaped = false;
  // Whether only white space came since the line's start: where an element at its sibling's column may start.
  let lineBlank = true;
  // Whether only white space, brackets and commas came since the line's start: an element opened there stands alone.
  let lineBare = true;
  // Bytes of white space before the line's first other byte: the column of the elements that start on the line.
  let lineIndent = 0;
  // Of the open container element: whether each container it has open is an object, innermost last, and its last
  // byte outside strings that is not white space. A `{` can come only where a value may.
  const objects: boolean[] = [];
  let lastSignificant = 0;
  let element: OpenElement | null = null;
  let skipFrom = start;
  let skipLine = line;

  function flushSkip(upTo: number): void {
    if (upTo > skipFrom) sink.skip(skipLine, skipFrom, upTo - skipFrom);
  }

  function open(offset: number, isText: boolean, isContainer: boolean): OpenElement {
    flushSkip(offset);
    return {
      isText,
      line: lineNumber,
      offset,
      column: lineIndent,
      depth,
      isContainer,
      pieces: [],
      held: 0,
      oversize: false,
      alone: lineBare,
      deeperLine: false,
    };
  }

  function textOf(open: OpenElement): string {
    if (open.pieces.length === 1) return decoder.decode(open.pieces[0]);
    const joined = new Uint8Array(open.held);
    let at = 0;
    for (const piece of open.pieces) {
      joined.set(piece, at);
      at += piece.length;
    }
    return decoder.decode(joined);
  }

  /**
   * The element ends just before offset `end`. `readTo` is how far it was read: past `end` when it was cut at a line
   * start on seeing a sibling's first byte. Whether it is oversize depends on that only, never on the chunks.
   */
  function close(open: OpenElement, end: number, cutShort: boolean, readTo = end): void {
    element = null;
    lineBare = false;
    skipFrom = end;
    skipLine = lineNumber;
    const text = textOf(open);
    if (open.oversize || readTo - open.offset > maxRecordBytes) {
      sink.problem('oversize', oversizeMessage(maxRecordBytes), open.line, open.offset, end, text);
      return;
    }
    // Text between an array's records ends before the comma that follows it, as a record would.
    const body = open.isText ? text.replace(inArray ? /\s*,?\s*$/ : /\r?\n$/, '') : text;
    if (open.isText && !startsLikeJson(body)) {
      sink.problem('non-json-output', outputLineMessage(body), open.line, open.offset, end, body);
      return;
    }
    if (cutShort) {
      sink.problem('truncated', 'input ends inside this record', open.line, open.offset, end, body.trimEnd());
      return;
    }
    let parseError: unknown;
    try {
      sink.value(JSON.parse(body), body, open.line, open.offset, end);
      return;
    } catch (error) {
      parseError = error;
    }
    const parsed = parseRepaired(body, parseError);
    if (parsed.ok) sink.value(parsed.value, body, open.line, open.offset, end);
    else sink.problem('invalid-json', invalidJsonMessage(parsed.error), open.line, open.offset, end, body);
  }

  function hold(open: OpenElement, bytes: Uint8Array, from: number, to: number): void {
    if (to <= from) return;
    // Of an oversize element, only the bytes of an excerpt's first characters are kept (four bytes a character at
    // most), contiguous from its start.
    const room = open.oversize ? EXCERPT_BYTES - open.held : to - from;
    if (room <= 0) return;
    open.pieces.push(copyOf(bytes, from, Math.min(to, from + room)));
    open.held += Math.min(to - from, room);
  }

  /** The open element is read up to input offset `at`: past the limit, its bytes are dropped but for an excerpt's. */
  function bound(open: OpenElement, at: number): void {
    if (open.oversize || at - open.offset <= maxRecordBytes) return;
    open.oversize = true;
    const pieces = open.pieces;
    open.pieces = [];
    open.held = 0;
    for (const piece of pieces) hold(open, piece, 0, piece.length);
  }

  function feed(bytes: Uint8Array, base: number): void {
    // Where the open element's bytes in this piece start; they are held when it ends or the piece does.
    let heldFrom = 0;
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index] as number;
      const offset = base + index;
      const startsLine = lineBlank && !isWhitespace(byte);
      if (startsLine) {
        lineBlank = false;
        lineIndent = offset - lineStart;
      }
      const current = element;
      if (current !== null) {
        if (current.isText) {
          if (byte === LF) {
            hold(current, bytes, heldFrom, index + 1);
            close(current, offset + 1, false);
            newLine(offset);
            skipLine = lineNumber;
          }
          continue;
        }
        if (startsLine && current.isContainer) {
          const column = offset - lineStart;
          if (column > current.column) current.deeperLine = true;
          else if (
            (byte === LEFT_BRACE || byte === LEFT_BRACKET) &&
            (current.deeperLine || !current.alone || inString || !expectsValue())
          ) {
            // A sibling's start at the element's column or before it, even in a string (a pretty-printer escapes
            // every line break): the element was cut short, and ends with its last line.
            hold(current, bytes, heldFrom, index);
            depth = current.depth;
            inString = false;
            escaped = false;
            close(current, lineStart, true, offset);
            lineBare = true;
            element = open(offset, false, true);
            depth++;
            heldFrom = index;
            objects.length = 0;
            objects.push(byte === LEFT_BRACE);
            lastSignificant = byte;
            continue;
          }
        }
        if (inString) {
          if (escaped) {
            escaped = false;
            if (byte === LF) newLine(offset);
          } else if (byte === LF && !current.isContainer) {
            // A string value of an array ends with its line: a pretty-printer escapes every line break.
            inString = false;
            hold(current, bytes, heldFrom, index);
            close(current, offset, false);
            index--;
          } else if (byte === BACKSLASH) escaped = true;
          else if (byte === QUOTE) {
            inString = false;
            lastSignificant = QUOTE;
          } else if (byte === LF) newLine(offset);
          else if (!lineBlank) {
            // Most of a record is string content: passed over up to the next byte that matters, in one tight loop
            // (not at a line's start, where a sibling's first byte may end a string cut short).
            let next = index + 1;
            while (next < bytes.length) {
              const ahead = bytes[next] as number;
              if (ahead === QUOTE || ahead === BACKSLASH || ahead === LF) break;
              next++;
            }
            index = next - 1;
          }
          continue;
        }
        if (!current.isContainer) {
          // A value of an array that is no object or array ends at a comma, its array's end or its line's: words the
          // agent wrote between records (`2026-01-01 12:00:00 Error: [x] …`) are one problem, as a line of them is.
          if (byte === QUOTE) inString = true;
          else if (byte === LEFT_BRACE || byte === LEFT_BRACKET) depth++;
          else if ((byte === RIGHT_BRACE || byte === RIGHT_BRACKET) && depth > current.depth) depth--;
          else if (byte === LF || (depth === current.depth && (byte === COMMA || byte === RIGHT_BRACKET))) {
            depth = current.depth;
            hold(current, bytes, heldFrom, index);
            close(current, offset, false);
            index--;
            lineBlank = startsLine;
          }
          continue;
        }
        if (current.alone && offset !== current.offset && lineNumber === current.line && !isWhitespace(byte))
          current.alone = false;
        if (!isWhitespace(byte)) lastSignificant = byte;
        if (byte === QUOTE) inString = true;
        else if (byte === LEFT_BRACE || byte === LEFT_BRACKET) {
          depth++;
          objects.push(byte === LEFT_BRACE);
        } else if (byte === RIGHT_BRACE || byte === RIGHT_BRACKET) {
          depth--;
          objects.pop();
          if (depth === current.depth) {
            hold(current, bytes, heldFrom, index + 1);
            close(current, offset + 1, false);
          }
        } else if (byte === LF) newLine(offset);
        continue;
      }
      if (byte === LF) {
        newLine(offset);
        continue;
      }
      if (isWhitespace(byte)) continue;
      if (inArray && depth === 1) {
        if (byte === COMMA) continue;
        if (byte === RIGHT_BRACKET) {
          inArray = false;
          depth = 0;
          continue;
        }
      } else if (byte === LEFT_BRACKET) {
        inArray = true;
        depth = 1;
        continue;
      } else if (byte === COMMA) continue;
      const isContainer = byte === LEFT_BRACE || byte === LEFT_BRACKET;
      // Outside an array, only an object is read as a value; anything else is text up to its line feed, as is
      // anything in an array that no JSON value starts with (the agent's words between records).
      element = open(offset, isContainer ? false : !inArray || !startsScalar(byte), isContainer);
      heldFrom = index;
      objects.length = 0;
      objects.push(byte === LEFT_BRACE);
      lastSignificant = byte;
      if (isContainer) depth++;
      else if (byte === QUOTE && inArray) inString = true;
    }
    const current = element;
    if (current !== null) {
      hold(current, bytes, heldFrom, bytes.length);
      bound(current, base + bytes.length);
    }
  }

  /** Whether the open element's innermost container may take a value next: after `:`, `[`, or a comma of an array. */
  function expectsValue(): boolean {
    if (lastSignificant === COLON || lastSignificant === LEFT_BRACKET) return true;
    return lastSignificant === COMMA && objects[objects.length - 1] === false;
  }

  function newLine(offset: number): void {
    lineNumber++;
    lineStart = offset + 1;
    lineBlank = true;
    lineBare = true;
  }

  return {
    feed,
    end(end: number): void {
      const open = element;
      if (open !== null) {
        const complete = !open.isContainer && !open.isText && !inString;
        close(open, end, !open.isText && !complete);
      } else flushSkip(end);
    },
    bufferedBytes: () => (element === null || element.oversize ? 0 : element.held),
  };
}
