/**
 * Shared test support: run the tokenizer over chunked input and record everything it reports, and the fast-check
 * arbitraries for NDJSON documents with the shapes real streams have (raw newlines in strings, CRLF, blank lines,
 * noise, truncation, multi-byte text).
 */

import {
  createNdjsonTokenizer,
  type NdjsonChunk,
  type NdjsonItem,
  type NdjsonSkip,
  type NdjsonTokenizerOptions,
} from '@cursor-stream/ndjson';
import { fc } from '@fast-check/vitest';
import { expect } from 'vitest';

/** Everything one tokenizer run reported, in order. */
export interface TokenizerRun {
  items: NdjsonItem[];
  skips: NdjsonSkip[];
}

/** Feeds `chunks` through a fresh tokenizer and returns everything it reported. */
export function tokenize(chunks: Iterable<NdjsonChunk>, options: NdjsonTokenizerOptions = {}): TokenizerRun {
  const skips: NdjsonSkip[] = [];
  const tokenizer = createNdjsonTokenizer({ ...options, onSkip: (skip) => skips.push(skip) });
  const items: NdjsonItem[] = [];
  for (const chunk of chunks) items.push(...tokenizer.feed(chunk));
  items.push(...tokenizer.end());
  return { items, skips };
}

export const encodeUtf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Asserts that `run`'s records, problems and skips cover the `length` bytes of its input once each, in order. */
export function expectEveryByteOnce(run: TokenizerRun, length: number): void {
  const spans = [...run.items, ...run.skips].map(({ offset, length }) => [offset, length] as const);
  spans.sort((a, b) => a[0] - b[0]);
  let covered = 0;
  for (const [offset, spanLength] of spans) {
    expect(offset).toBe(covered);
    expect(spanLength).toBeGreaterThan(0);
    covered += spanLength;
  }
  expect(covered).toBe(length);
}

/**
 * `JSON.stringify(value)` with every `\n`, `\r` and `\t` escape inside strings written as the raw character, the way
 * a producer that forgets to escape line breaks writes it. Repair must give back the same value.
 */
export function stringifyWithRawNewlines(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  const raw: Record<string, string> = { n: '\n', r: '\r', t: '\t' };
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const char = json[i] as string;
    if (inString && char === '\\') {
      const next = json[i + 1] as string;
      out += raw[next] ?? char + next;
      i++;
      continue;
    }
    if (char === '"') inString = !inString;
    out += char;
  }
  return out;
}

/** Characters that trip line splitters and decoders: LF, CR, U+2028/U+2029, CJK, astral emoji, ZWJ sequences. */
const trickyText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom('\n', '\r\n', '\r', '\u2028', '\u2029', '\t', '\\', '"', '\\n') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('読み込み中', '你好。', '한국어', '𝄞', '👩‍👩‍👧', '🇯🇵', 'é', 'call_x\nfc_y'),
  },
);

/** Strings made of {@link trickyText} pieces. */
export const trickyString = fc.array(trickyText, { maxLength: 6 }).map((parts) => parts.join(''));

/** JSON values whose strings are {@link trickyString}s. */
export const trickyJsonValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    trickyString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(trickyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** JSON objects with tricky strings, the shape of every agent event. */
export const trickyJsonObject = fc.dictionary(trickyString, trickyJsonValue, { maxKeys: 5 });

/** One physical piece of an NDJSON document. */
export type DocumentLine =
  | { kind: 'record'; value: unknown; rawNewlines: boolean }
  | { kind: 'blank'; text: string }
  | { kind: 'noise'; text: string }
  | { kind: 'truncated'; value: unknown; keep: number };

const documentLine: fc.Arbitrary<DocumentLine> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('record'), value: trickyJsonObject, rawNewlines: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('blank'), text: fc.constantFrom('', ' ', '\t', '\r', '  \t ') }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('noise'),
      text: fc.constantFrom(
        'ActionRequiredError: Named models unavailable',
        'Press any key to sign in...',
        'T: "quoted',
        '{',
        '}}',
        '42 is not a record',
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('truncated'), value: trickyJsonObject, keep: fc.nat() }),
  },
);

/** A whole NDJSON document: lines, line endings, an optional BOM and an optional final LF. */
export interface Document {
  lines: DocumentLine[];
  crlf: boolean;
  bom: boolean;
  finalNewline: boolean;
}

export const documentArbitrary: fc.Arbitrary<Document> = fc.record({
  lines: fc.array(documentLine, { maxLength: 12 }),
  crlf: fc.boolean(),
  bom: fc.boolean(),
  finalNewline: fc.boolean(),
});

function renderLine(line: DocumentLine): string {
  if (line.kind === 'record')
    return line.rawNewlines ? stringifyWithRawNewlines(line.value) : JSON.stringify(line.value);
  if (line.kind === 'truncated') {
    const json = JSON.stringify(line.value);
    return json.slice(0, line.keep % json.length);
  }
  return line.text;
}

/** The text of a document. */
export function renderDocument(doc: Document): string {
  const eol = doc.crlf ? '\r\n' : '\n';
  const lines = doc.lines.map(renderLine);
  const body = lines.join(eol) + (doc.finalNewline && lines.length > 0 ? eol : '');
  return (doc.bom ? '\uFEFF' : '') + body;
}

/** `text` with raw control characters inside its strings escaped: an independent reading of what repair must do. */
function escapeRawControlsInStrings(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (inString && char === '\\') {
      out += char + (text[i + 1] ?? '');
      i++;
      continue;
    }
    if (char === '"') inString = !inString;
    const code = char.charCodeAt(0);
    out += inString && code < 0x20 ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  }
  return out;
}

/** Whether `text` is one JSON text once raw control characters inside its strings are escaped. */
export function isJsonText(text: string): boolean {
  for (const candidate of [text, escapeRawControlsInStrings(text)]) {
    try {
      JSON.parse(candidate);
      return true;
    } catch {}
  }
  return false;
}

/**
 * Whether a record written over several physical lines has a continuation line that is a JSON text on its own. The
 * tokenizer reads such a line as a record of its own (the documented cost of never waiting on an open string).
 */
export function hasJsonContinuationLine(text: string): boolean {
  return text
    .split('\n')
    .slice(1)
    .some((line) => line.trim() !== '' && isJsonText(line));
}
