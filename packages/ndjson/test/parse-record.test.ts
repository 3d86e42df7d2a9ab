/**
 * A consumer's own parser (`parseRecord`) changes nothing but who parses: records, problems and skips, with their
 * lines and byte offsets, are those of `JSON.parse` alone, however the input is chunked; and a line's byte offsets
 * hold whatever its bytes (ASCII, multi-byte characters, stray bytes read as U+FFFD). A consumer's line taker
 * (`takeLine`) sees each line as the same text and bytes, at its place, and what it takes is all that goes missing.
 */

import type { NdjsonLineView } from '@cursor-stream/ndjson';
import { cutAt } from '@cursor-stream/test-kit/chunking';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { tokenize } from './support.ts';

/** Lines of every kind: records, broken ones, blank ones, CRLF endings, multi-byte characters and stray bytes. */
const LINE = fc.constantFrom(
  '{"a":1}',
  '{"a":"é中𝄞"}',
  '{"b":[1,{"c":null}]} ',
  '{"a":1}\r',
  '',
  '\r',
  'not json',
  '{"a":',
  '[1,2]',
  '"text"',
  '{"d":"\\u00e9\\n"}',
  '{"s":"\u0000"}',
);
const STRAY = fc.constantFrom([0xff], [0x80], [0xc3], [0xe4, 0xb8], [0xf0, 0x9d, 0x84]);

/** Input bytes from lines, a stray byte sequence at times at the end of a line, and whether the last is ended. */
const INPUT = fc
  .tuple(
    fc.array(fc.tuple(LINE, fc.option(STRAY, { nil: undefined, freq: 4 })), { maxLength: 30 }),
    fc.boolean(),
  )
  .map(([lines, lastEnded]) => {
    const parts: Buffer[] = [];
    lines.forEach(([line, stray], index) => {
      parts.push(Buffer.from(line));
      if (stray !== undefined) parts.push(Buffer.from(stray));
      if (index < lines.length - 1 || lastEnded) parts.push(Buffer.from('\n'));
    });
    return new Uint8Array(Buffer.concat(parts));
  });

/** Takes the lines that begin with `{"a"` and parse, noting the text of each it takes. */
function ownParser(taken: string[]) {
  return (text: string): unknown => {
    if (!text.startsWith('{"a"')) return undefined;
    try {
      const value: unknown = JSON.parse(text);
      taken.push(text);
      return value;
    } catch {
      return undefined;
    }
  };
}

describe('parseRecord', () => {
  test.prop([INPUT, fc.array(fc.nat(), { maxLength: 8 })])(
    'gives the records, problems and skips of JSON.parse alone, at the same places, in any chunking',
    (bytes, cuts) => {
      const plain = tokenize([bytes]);
      const taken: string[] = [];
      const own = tokenize(cutAt(bytes, cuts), { parseRecord: ownParser(taken) });
      expect(own).toEqual(plain);
      // It saw each record's text as the record holds it: without the CR of a CRLF.
      const texts = own.items.flatMap((item) => ('text' in item ? [item.text] : []));
      expect(texts.filter((text) => text.startsWith('{"a"'))).toEqual(taken);
    },
  );

  test.prop([INPUT, fc.array(fc.nat(), { maxLength: 8 })])(
    "places every line at its first byte's offset, whatever its bytes",
    (bytes, cuts) => {
      const starts = [0];
      bytes.forEach((byte, index) => {
        if (byte === 0x0a) starts.push(index + 1);
      });
      const { items } = tokenize(cutAt(bytes, cuts));
      for (const item of items) expect(item.offset).toBe(starts[item.line - 1]);
    },
  );
});

/** A line as a taker saw it: its text, its bytes decoded, the text after its first byte if ASCII, and its place. */
interface SeenLine {
  text: string;
  decoded: string;
  afterFirst: string | undefined;
  line: number;
  offset: number;
  length: number;
}

const decoder = new TextDecoder();

/** Takes the lines that begin with `{"a":1`, noting every line it is given. */
function lineTaker(seen: SeenLine[]) {
  return (view: NdjsonLineView): boolean => {
    const text = view.decode(view.byteStart, view.byteEnd);
    const decoded = decoder.decode(view.bytes.subarray(view.byteStart, view.byteEnd));
    const afterFirst =
      (view.bytes[view.byteStart] as number) < 0x80
        ? view.decode(view.byteStart + 1, view.byteEnd)
        : undefined;
    seen.push({ text, decoded, afterFirst, line: view.line, offset: view.offset, length: view.length });
    return text.startsWith('{"a":1');
  };
}

describe('takeLine', () => {
  test.prop([INPUT, fc.array(fc.nat(), { maxLength: 8 })])(
    'sees each line as the same text and bytes, at its place, and leaves out exactly the lines it takes',
    (bytes, cuts) => {
      const plain = tokenize([bytes]);
      const seen: SeenLine[] = [];
      const taking = tokenize(cutAt(bytes, cuts), { takeLine: lineTaker(seen) });
      const starts = [0];
      bytes.forEach((byte, index) => {
        if (byte === 0x0a) starts.push(index + 1);
      });
      for (const line of seen) {
        expect(line.decoded).toBe(line.text);
        if (line.afterFirst !== undefined) expect(line.afterFirst).toBe(line.text.slice(1));
        expect(line.offset).toBe(starts[line.line - 1]);
        const next = starts[line.line] ?? bytes.length;
        expect(line.length).toBe(next - line.offset);
        // Its text is the line's without the CR of a CRLF.
        const raw = decoder.decode(bytes.subarray(line.offset, next)).replace(/\r?\n$/, '');
        expect(line.text).toBe(raw);
      }
      const taken = new Set(seen.filter((line) => line.text.startsWith('{"a":1')).map((line) => line.line));
      expect(taking.items).toEqual(plain.items.filter((item) => !taken.has(item.line)));
      expect(taking.skips).toEqual(plain.skips);
    },
  );
});
