/**
 * Long strings left undecoded until read (`lazyStrings`): whatever the record and the chunking, reading gives exactly
 * what an eager parse gives, problems are the same, and nothing is decoded that nobody reads.
 */
import {
  createNdjsonTokenizer,
  hasLazyStrings,
  isLazyString,
  LAZY_LINE_BYTES,
  LAZY_STRING_BYTES,
  type NdjsonItem,
  type NdjsonRecord,
  relocatedRecord,
} from '@cursor-stream/ndjson';
import { cutAt } from '@cursor-stream/test-kit/chunking';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { encodeUtf8, tokenize } from './support.ts';

const isRecord = (item: NdjsonItem): item is NdjsonRecord => 'value' in item;

/** Pieces a long payload is made of: plain text, JSON escapes, multi-byte characters, quotes, backslashes. */
const payloadPiece = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '"',
    '\\',
    '\n',
    '\t',
    '\u0000',
    '\u001f',
    '/',
    '\u2028',
    '👍🏽',
    'é',
    '\ud800',
    '</script>',
  ),
);

/** A string of at least {@link LAZY_STRING_BYTES}, repeated up to about 40 KiB so that its line is cut lazily. */
const longString = fc
  .tuple(fc.array(payloadPiece, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 40 }))
  .map(([pieces, kilobytes]) => {
    const unit = pieces.join('') || 'x';
    return unit.repeat(Math.ceil((kilobytes * 1024 + LAZY_STRING_BYTES) / unit.length));
  });

/** A record shaped like a tool call, with long strings in outputs, arrays and nested objects. */
const longRecord = fc.record({
  type: fc.constant('tool_call'),
  subtype: fc.constantFrom('started', 'completed'),
  call_id: fc.string({ maxLength: 20 }),
  tool_call: fc.record({
    readToolCall: fc.record({
      args: fc.record({ path: fc.string({ maxLength: 30 }), contents: fc.option(longString) }),
      result: fc.record({
        success: fc.record({ content: longString, lines: fc.array(longString, { maxLength: 2 }) }),
      }),
    }),
  }),
});

/** Reads every value, decoding every lazy string, so that two runs can be compared. */
function settled(items: readonly NdjsonItem[]): unknown[] {
  return items.map((item) =>
    isRecord(item) ? { ...item, value: JSON.parse(JSON.stringify(item.value)), text: item.text } : item,
  );
}

const LINES_PER_DOCUMENT = 3;

/** Whether a value holds a string not decoded yet, at any depth. */
function holdsLazyString(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (hasLazyStrings(value)) return true;
  return Object.entries(Object.getOwnPropertyDescriptors(value)).some(
    ([, descriptor]) => 'value' in descriptor && holdsLazyString(descriptor.value),
  );
}

describe('lazy strings', () => {
  test.prop([
    fc.array(longRecord, { minLength: 1, maxLength: LINES_PER_DOCUMENT }),
    fc.array(fc.nat(), { maxLength: 12 }),
  ])('any record and any chunking give what an eager parse gives', (records, cuts) => {
    const bytes = encodeUtf8(`${records.map((record) => JSON.stringify(record)).join('\r\n')}\n`);
    const chunks = cutAt(bytes, cuts);
    const lazy = tokenize(chunks, { lazyStrings: true, objectsOnly: true });
    const eager = tokenize([bytes], { objectsOnly: true });
    expect(settled(lazy.items)).toEqual(settled(eager.items));
    expect(lazy.skips).toEqual(eager.skips);
    expect(lazy.items.filter(isRecord).map((record) => record.value)).toEqual(records);
    // The first line, held over two chunks, is cut when it is long enough: the property is not met by eager reads.
    const first = `${JSON.stringify(records[0])}`;
    const [held] = tokenize([bytes.subarray(0, 1), bytes.subarray(1)], { lazyStrings: true }).items;
    expect(held !== undefined && isRecord(held) && holdsLazyString(held.value)).toBe(
      encodeUtf8(first).length >= LAZY_LINE_BYTES,
    );
  });

  test.prop([
    longString,
    fc.constantFrom('\\x', '\\u12', '\u0001', '\t', '\\u0000 in a short string', 'long key'),
    fc.array(fc.nat(), { maxLength: 8 }),
  ])('records not plain enough to cut are read as without the option', (payload, flaw, cuts) => {
    const good = JSON.stringify(payload).slice(1, -1);
    const line =
      flaw === 'long key'
        ? `{"${good}":1,"b":"${good}"}`
        : flaw === '\\u0000 in a short string'
          ? `{"a":"\\u0000","b":"${good}"}`
          : `{"a":"${good}${flaw}${good}"}`;
    const bytes = encodeUtf8(`${line}\n${line}`);
    const chunks = cutAt(bytes, [...cuts, 100]);
    expect(settled(tokenize(chunks, { lazyStrings: true }).items)).toEqual(settled(tokenize([bytes]).items));
  });

  it('decodes a string only when it is read, and takes a value written to it', () => {
    const content = 'x'.repeat(LAZY_LINE_BYTES);
    const bytes = encodeUtf8(`${JSON.stringify({ type: 'tool_call', result: { content, n: 1 } })}\n`);
    const [record] = tokenize(cutAt(bytes, [10]), { lazyStrings: true }).items.filter(isRecord);
    if (record === undefined) throw new Error('no record');
    const result = (record.value as { result: { content: string; n: number } }).result;
    expect(hasLazyStrings(result)).toBe(true);
    expect(isLazyString(result, 'content')).toBe(true);
    expect(Object.keys(result)).toEqual(['content', 'n']);
    expect(result.content).toBe(content);
    expect(isLazyString(result, 'content')).toBe(false);
    result.content = 'replaced';
    expect(result.content).toBe('replaced');
    expect(JSON.stringify(result)).toBe('{"content":"replaced","n":1}');
  });

  it('reads a line held in one chunk, or shorter than the bound, eagerly', () => {
    const content = 'y'.repeat(LAZY_LINE_BYTES);
    const bytes = encodeUtf8(`${JSON.stringify({ result: { content } })}\n`);
    const [whole] = createNdjsonTokenizer({ lazyStrings: true }).feed(bytes).filter(isRecord);
    if (whole === undefined) throw new Error('no record');
    expect(hasLazyStrings((whole.value as { result: object }).result)).toBe(false);
  });

  test.prop([
    fc.array(longRecord, { minLength: 1, maxLength: LINES_PER_DOCUMENT }),
    fc.integer({ min: 1, max: 70000 }),
  ])('a caller refilling one buffer for every chunk gets what an eager parse gives', (records, size) => {
    const bytes = encodeUtf8(`${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
    const scratch = new Uint8Array(size);
    const tokenizer = createNdjsonTokenizer({ lazyStrings: true });
    const items: NdjsonItem[] = [];
    for (let at = 0; at < bytes.length; at += size) {
      const piece = bytes.subarray(at, at + size);
      scratch.set(piece);
      items.push(...tokenizer.feed(scratch.subarray(0, piece.length)));
      scratch.fill(0x7b);
    }
    items.push(...tokenizer.end());
    expect(settled(items)).toEqual(settled(tokenize([bytes]).items));
  });

  it('gives every record the same accessor for a key, so that no hidden class holds a record and its bytes', () => {
    const line = (n: number) => JSON.stringify({ type: 'tool_call', n, output: 'z'.repeat(LAZY_LINE_BYTES) });
    const bytes = encodeUtf8(`${line(1)}\n${line(2)}\n`);
    const records = tokenize(cutAt(bytes, [5, bytes.length / 2 + 5]), { lazyStrings: true }).items.filter(
      isRecord,
    );
    const accessors = records.map((record) => Object.getOwnPropertyDescriptor(record.value, 'output')?.get);
    const texts = records.map((record) => Object.getOwnPropertyDescriptor(record, 'text')?.get);
    expect(accessors).toHaveLength(2);
    expect(accessors[0]).toBeTypeOf('function');
    expect(accessors[1]).toBe(accessors[0]);
    expect(texts[0]).toBeTypeOf('function');
    expect(texts[1]).toBe(texts[0]);
    expect(records.map((record) => record.text)).toEqual([line(1), line(2)]);
    expect(Object.keys(records[0] ?? {})).toEqual(['value', 'line', 'offset', 'length', 'text']);
  });

  it('reads a string through an object built on its holder, and from a holder its consumer froze', () => {
    const content = 'w'.repeat(LAZY_LINE_BYTES);
    const bytes = encodeUtf8(
      `${JSON.stringify({ a: { content } })}\n${JSON.stringify({ b: { content } })}\n`,
    );
    const [first, second] = tokenize(cutAt(bytes, [3, bytes.length / 2 + 3]), {
      lazyStrings: true,
    }).items.filter(isRecord);
    if (first === undefined || second === undefined) throw new Error('two records expected');
    const holder = (first.value as { a: { content: string } }).a;
    expect((Object.create(holder) as { content: string }).content).toBe(content);
    expect(isLazyString(holder, 'content')).toBe(false);
    expect(Object.getOwnPropertyDescriptor(holder, 'content')?.value).toBe(content);
    const frozen = Object.freeze((second.value as { b: { content: string } }).b);
    expect(frozen.content).toBe(content);
    expect(frozen.content).toBe(content);
    expect(JSON.stringify(frozen)).toBe(JSON.stringify({ content }));
  });

  test.prop([
    fc.array(longRecord, { minLength: 1, maxLength: LINES_PER_DOCUMENT }),
    fc.array(fc.nat(), { maxLength: 12 }),
    fc.nat(),
    fc.nat(),
  ])(
    'a record moved elsewhere is the record at its new place, its text undecoded if it was',
    (records, cuts, lines, bytes) => {
      const input = encodeUtf8(`${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
      for (const record of tokenize(cutAt(input, cuts), { lazyStrings: true }).items.filter(isRecord)) {
        const lazy = isLazyString(record, 'text');
        const moved = relocatedRecord(record, record.line + lines, record.offset + bytes);
        expect(isLazyString(record, 'text')).toBe(lazy);
        expect(isLazyString(moved, 'text')).toBe(lazy);
        expect(Object.keys(moved)).toEqual(Object.keys(record));
        expect(moved.value).toBe(record.value);
        expect(moved.text).toBe(record.text);
        expect({ ...moved, line: record.line, offset: record.offset }).toEqual({ ...record });
        expect([moved.line, moved.offset]).toEqual([record.line + lines, record.offset + bytes]);
      }
    },
  );

  it('moves a record whose text is undecoded without decoding it', () => {
    const content = 'm'.repeat(LAZY_LINE_BYTES);
    const bytes = encodeUtf8(`${JSON.stringify({ type: 'tool_call', result: { content } })}\n`);
    const [record] = tokenize(cutAt(bytes, [10]), { lazyStrings: true }).items.filter(isRecord);
    if (record === undefined) throw new Error('no record');
    expect(isLazyString(record, 'text')).toBe(true);
    const moved = relocatedRecord(record, 40, 4000);
    expect(isLazyString(record, 'text')).toBe(true);
    expect(isLazyString(moved, 'text')).toBe(true);
    expect(moved.text).toBe(new TextDecoder().decode(bytes.subarray(0, -1)));
    expect(isLazyString(moved, 'text')).toBe(false);
    expect([moved.line, moved.offset, moved.length]).toEqual([40, 4000, bytes.length]);
  });
});
