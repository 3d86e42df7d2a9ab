/**
 * The tokenizer's invariants as properties: chunking never matters, every byte is accounted for, values round-trip
 * (also with raw line breaks inside strings), and garbage never throws or grows memory.
 */
import { createNdjsonTokenizer, type NdjsonItem, type NdjsonRecord } from '@cursor-stream/ndjson';
import { cutAt, cutBySizes } from '@cursor-stream/test-kit/chunking';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  documentArbitrary,
  encodeUtf8,
  expectEveryByteOnce,
  renderDocument,
  stringifyWithRawNewlines,
  tokenize,
  trickyJsonObject,
  trickyJsonValue,
} from './support.ts';

const isRecord = (item: NdjsonItem): item is NdjsonRecord => 'value' in item;

describe('chunking', () => {
  test.prop([
    documentArbitrary,
    fc.array(fc.integer({ min: 1, max: 65_536 }), { minLength: 1, maxLength: 8 }),
  ])('any chunk sizes give the same records, problems and skips as one chunk', (doc, sizes) => {
    const bytes = encodeUtf8(renderDocument(doc));
    expect(tokenize(cutBySizes(bytes, sizes))).toEqual(tokenize([bytes]));
  });

  test.prop([documentArbitrary, fc.array(fc.nat(), { maxLength: 20 })])(
    'cuts at any byte, inside multi-byte characters and CRLFs included, change nothing',
    (doc, cuts) => {
      const bytes = encodeUtf8(renderDocument(doc));
      expect(tokenize(cutAt(bytes, cuts))).toEqual(tokenize([bytes]));
    },
  );

  test.prop([documentArbitrary, fc.array(fc.nat(), { maxLength: 20 }), fc.integer({ min: 4, max: 80 })])(
    'with a small maxRecordBytes too, any cuts give the same records, problems and skips',
    (doc, cuts, maxRecordBytes) => {
      const bytes = encodeUtf8(renderDocument(doc));
      expect(tokenize(cutAt(bytes, cuts), { maxRecordBytes })).toEqual(tokenize([bytes], { maxRecordBytes }));
      expect(tokenize(cutBySizes(bytes, [1]), { maxRecordBytes })).toEqual(
        tokenize([bytes], { maxRecordBytes }),
      );
    },
  );

  test.prop([documentArbitrary])('one byte at a time gives the same result as one chunk', (doc) => {
    const bytes = encodeUtf8(renderDocument(doc));
    expect(tokenize(cutBySizes(bytes, [1]))).toEqual(tokenize([bytes]));
  });

  test.prop([documentArbitrary, fc.array(fc.nat(), { maxLength: 20 })])(
    'string chunks cut anywhere, between surrogate halves included, read like the same text as bytes',
    (doc, cuts) => {
      const text = renderDocument(doc);
      expect(tokenize(cutAt(text, cuts))).toEqual(tokenize([encodeUtf8(text)]));
    },
  );
});

describe('accounting', () => {
  test.prop([documentArbitrary, fc.array(fc.nat(), { maxLength: 10 })])(
    'records, problems and skips cover every input byte exactly once, in order',
    (doc, cuts) => {
      const bytes = encodeUtf8(renderDocument(doc));
      expectEveryByteOnce(tokenize(cutAt(bytes, cuts)), bytes.length);
    },
  );

  test.prop([documentArbitrary, fc.array(fc.nat(), { maxLength: 10 })])(
    'skipping records by their text removes exactly the single-line ones it matches, and every byte is still covered',
    (doc, cuts) => {
      const bytes = encodeUtf8(renderDocument(doc));
      const matches = (text: string) => text.includes('"');
      const filtered = tokenize(cutAt(bytes, cuts), { skipRecord: matches });
      const all = tokenize([bytes]).items.filter(isRecord);
      const kept = all.filter((record) => !(matches(record.text) && !record.text.includes('\n')));
      expect(filtered.items.filter(isRecord)).toEqual(kept);
      const covered = [...filtered.items, ...filtered.skips].reduce((sum, { length }) => sum + length, 0);
      expect(covered).toBe(bytes.length);
    },
  );

  test.prop([documentArbitrary])('items come out in input order with increasing line numbers', (doc) => {
    const { items } = tokenize([encodeUtf8(renderDocument(doc))]);
    for (let i = 1; i < items.length; i++) {
      const previous = items[i - 1] as NdjsonItem;
      const current = items[i] as NdjsonItem;
      expect(current.offset).toBeGreaterThan(previous.offset);
      expect(current.line).toBeGreaterThan(previous.line);
    }
  });

  test.prop([documentArbitrary])("each record's text is its bytes without the line terminator", (doc) => {
    const bytes = encodeUtf8(renderDocument(doc));
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    for (const record of tokenize([bytes]).items.filter(isRecord)) {
      const source = decoder.decode(bytes.subarray(record.offset, record.offset + record.length));
      expect(source.replace(/\r?\n$/, '')).toBe(record.text);
    }
  });
});

describe('round trip', () => {
  const layout = fc.record({
    crlf: fc.boolean(),
    bom: fc.boolean(),
    finalNewline: fc.boolean(),
    blankAfter: fc.array(fc.constantFrom('', ' ', '\t', '\r'), { maxLength: 12 }),
  });

  test.prop([fc.array(fc.jsonValue(), { maxLength: 12 }), layout, fc.array(fc.nat(), { maxLength: 10 })])(
    'arbitrary JSON values written as NDJSON with CRLF, blank lines and a BOM parse back equal',
    (values, { crlf, bom, finalNewline, blankAfter }, cuts) => {
      const eol = crlf ? '\r\n' : '\n';
      const lines = values.flatMap((value, i) => [
        JSON.stringify(value),
        ...(blankAfter[i] !== undefined ? [blankAfter[i]] : []),
      ]);
      const text = (bom ? '\uFEFF' : '') + lines.join(eol) + (finalNewline ? eol : '');
      const { items } = tokenize(cutAt(encodeUtf8(text), cuts));
      expect(items.filter((item) => 'code' in item)).toEqual([]);
      expect(items.map((item) => (item as NdjsonRecord).value)).toEqual(
        values.map((v) => JSON.parse(JSON.stringify(v))),
      );
    },
  );

  test.prop([
    fc.array(trickyJsonValue, { minLength: 1, maxLength: 10 }),
    fc.boolean(),
    fc.array(fc.nat(), { maxLength: 10 }),
  ])(
    'writing \\n, \\r and \\t escapes as raw characters gives the same values, newlines in U+2028 text too',
    (values, crlf, cuts) => {
      const eol = crlf ? '\r\n' : '\n';
      const escaped = tokenize([encodeUtf8(values.map((v) => JSON.stringify(v)).join(eol))]).items;
      const raw = tokenize(
        cutAt(encodeUtf8(values.map((v) => stringifyWithRawNewlines(v)).join(eol)), cuts),
      ).items;
      expect(raw.filter((item) => 'code' in item)).toEqual([]);
      expect(raw.map((item) => (item as NdjsonRecord).value)).toEqual(
        escaped.map((item) => (item as NdjsonRecord).value),
      );
      // Each raw record starts one line below the previous record's last physical line.
      let line = 1;
      const startLines = values.map((value) => {
        const start = line;
        line += stringifyWithRawNewlines(value).split('\n').length;
        return start;
      });
      expect(raw.map((item) => item.line)).toEqual(startLines);
    },
  );
});

describe('garbage', () => {
  test.prop([
    fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 20 }),
    fc.integer({ min: 1, max: 64 }),
  ])(
    'random bytes never throw, and the bytes held between calls never exceed maxRecordBytes',
    (chunks, maxRecordBytes) => {
      const skips: number[] = [];
      const tokenizer = createNdjsonTokenizer({ maxRecordBytes, onSkip: (s) => skips.push(s.length) });
      let covered = 0;
      for (const chunk of chunks) {
        for (const item of tokenizer.feed(chunk)) covered += item.length;
        expect(tokenizer.bufferedBytes).toBeLessThanOrEqual(maxRecordBytes);
      }
      for (const item of tokenizer.end()) covered += item.length;
      covered += skips.reduce((sum, length) => sum + length, 0);
      expect(covered).toBe(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    },
  );

  test.prop([fc.array(trickyJsonObject, { maxLength: 6 }), fc.nat(), fc.integer({ min: 1, max: 8 })])(
    'a record cut short anywhere loses only itself: the records after it all come through',
    (values, cutSeed, keep) => {
      const cutLine = JSON.stringify({
        type: 'tool_call',
        call_id: 'call_x\nfc_y',
        huge: 'x'.repeat(keep * 10),
      });
      const truncated = cutLine.slice(0, 1 + (cutSeed % (cutLine.length - 1)));
      const text = [truncated, ...values.map((v) => JSON.stringify({ type: 'next', v }))].join('\n');
      const { items } = tokenize([encodeUtf8(text)]);
      expect(items[0]).toMatchObject({ line: 1, offset: 0 });
      expect('code' in (items[0] as NdjsonItem)).toBe(true);
      expect(items.filter(isRecord).map((r) => r.value)).toEqual(
        values.map((v) => JSON.parse(JSON.stringify({ type: 'next', v }))),
      );
    },
  );
});
