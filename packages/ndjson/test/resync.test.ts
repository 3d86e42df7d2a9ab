/**
 * Resynchronisation after a line left open in a string: the record after it is never given up, whatever its shape
 * (raw line breaks, tabs or CRs in its strings, `{}`, arrays, numbers) and however the input is chunked.
 */
import { MAX_CANDIDATES, type NdjsonItem, type NdjsonRecord } from '@cursor-stream/ndjson';
import { cutAt, cutBySizes } from '@cursor-stream/test-kit/chunking';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  encodeUtf8,
  hasJsonContinuationLine,
  isJsonText,
  stringifyWithRawNewlines,
  tokenize,
  trickyJsonObject,
  trickyJsonValue,
} from './support.ts';

const isRecord = (item: NdjsonItem): item is NdjsonRecord => 'value' in item;
const CUT = '{"type":"assistant","text":"cut';

/** Every shape a following record takes, written as a producer writes it (raw characters where it forgets escapes). */
const followingRecords: [string, string, unknown][] = [
  [
    'a call id with a raw LF',
    '{"type":"tool_call","subtype":"started","call_id":"call_PFAupCWibROFKbdASSdiHCoi\nfc_0d2609f619ccdca8"}',
    { type: 'tool_call', subtype: 'started', call_id: 'call_PFAupCWibROFKbdASSdiHCoi\nfc_0d2609f619ccdca8' },
  ],
  ['a raw tab', '{"type":"assistant","text":"a\tb"}', { type: 'assistant', text: 'a\tb' }],
  ['a raw CR', '{"type":"assistant","text":"a\rb"}', { type: 'assistant', text: 'a\rb' }],
  ['a raw CRLF', '{"type":"result","result":"one\r\ntwo"}', { type: 'result', result: 'one\r\ntwo' }],
  ['two raw LFs', '{"a":"x\ny\nz","b":"\n"}', { a: 'x\ny\nz', b: '\n' }],
  ['an empty object', '{}', {}],
  ['an object without strings', '{"n":1}', { n: 1 }],
  ['an array', '[1,2]', [1, 2]],
  ['an array with a raw LF', '["a\nb"]', ['a\nb']],
  ['a number', '42', 42],
  ['a negative number', '-1.5e3', -1500],
  ['a string', '"text"', 'text'],
  ['a string with a raw LF', '"two\nlines"', 'two\nlines'],
  ['null', 'null', null],
  ['true', 'true', true],
  ['false', 'false', false],
  ['a plain record', '{"type":"result","result":"ok"}', { type: 'result', result: 'ok' }],
];

describe('the record after a line cut inside a string', () => {
  for (const [name, text, value] of followingRecords) {
    test(`is delivered when it is ${name}`, () => {
      const input = `${CUT}\n${text}\n{"type":"after"}\n`;
      for (const chunks of [[encodeUtf8(input)], cutBySizes(encodeUtf8(input), [1])]) {
        const { items } = tokenize(chunks);
        expect(items[0]).toMatchObject({
          code: 'unterminated-string',
          line: 1,
          offset: 0,
          length: CUT.length + 1,
        });
        expect(items.slice(1)).toEqual([
          { value, text, line: 2, offset: CUT.length + 1, length: encodeUtf8(text).length + 1 },
          expect.objectContaining({ value: { type: 'after' } }),
        ]);
      }
    });
  }

  test('a record continued over raw line breaks is still read whole when nothing was cut before it', () => {
    const input = '{"a":"ends with a line break\n"}\n{"b":"x\n","c":1}\n';
    expect(tokenize([input]).items.map((item) => (item as NdjsonRecord).value)).toEqual([
      { a: 'ends with a line break\n' },
      { b: 'x\n', c: 1 },
    ]);
  });

  test('a line that both starts a record and would go on inside the open string is followed both ways', () => {
    // `[\"` starts an array with an open string, and is an escaped quote inside the open record's string.
    const inside = '{"t":"say\n[\\"\nhi"}\n';
    expect(tokenize([inside]).items).toEqual([
      { value: { t: 'say\n["\nhi' }, text: inside.slice(0, -1), line: 1, offset: 0, length: inside.length },
    ]);
    const after = `${CUT}\n[\\"\n"]\n`;
    expect(
      tokenize([after])
        .items.filter(isRecord)
        .map((r) => r.value),
    ).toEqual([]);
    const own = `${CUT}\n["x\\"\ny"]\n`;
    expect(
      tokenize([own])
        .items.filter(isRecord)
        .map((r) => r.value),
    ).toEqual([['x"\ny']]);
  });

  test('lines that are more of the cut string are one problem with the cut line, and every byte is covered', () => {
    const input = `${CUT}\nmore words\nand more\n{"type":"next"}\n`;
    const { items } = tokenize([input]);
    expect(items).toEqual([
      expect.objectContaining({ code: 'unterminated-string', line: 1, offset: 0, length: 52 }),
      expect.objectContaining({ value: { type: 'next' }, line: 4, offset: 52 }),
    ]);
  });

  test(`at most ${MAX_CANDIDATES} readings are held, and the open record's own is kept`, () => {
    // Each `[\"` line starts a reading; the record still closes on its last line.
    const lines = Array.from({ length: 3 * MAX_CANDIDATES }, () => '[\\"');
    const input = `{"t":"x\n${lines.join('\n')}\nend"}\n`;
    expect(tokenize([input]).items.map((item) => (item as NdjsonRecord).value)).toEqual([
      { t: `x\n${lines.map(() => '["').join('\n')}\nend` },
    ]);
  });
});

/** A line a producer may leave behind: cut records, noise, lines that open a quote, anything without a line feed. */
const garbageLine = fc
  .oneof(
    fc.constantFrom(
      CUT,
      '{"a":"',
      '["',
      '"',
      '{"a":"x\\',
      '{',
      'T: "quoted',
      'ActionRequiredError: boom',
      '\t',
      '',
    ),
    trickyJsonObject.chain((value) => {
      const json = stringifyWithRawNewlines(value);
      return fc.nat({ max: json.length }).map((keep) => json.slice(0, keep));
    }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
  )
  .map((line) => line.replaceAll('\n', ' '));

/** Whether the garbage's open string, read on over the record's first line, already makes a valid record. */
function garbageClosesOnFirstLine(garbage: string, record: string): boolean {
  const first = record.split('\n')[0] as string;
  return record.includes('\n') && isJsonText(`${garbage}\n${first}`);
}

describe('resync properties', () => {
  test.prop([
    garbageLine,
    fc.oneof(trickyJsonObject, trickyJsonValue),
    fc.boolean(),
    fc.array(fc.nat(), { maxLength: 12 }),
  ])(
    'a valid record after any garbage line is delivered, under any chunking',
    (garbage, value, crlf, cuts) => {
      const record = stringifyWithRawNewlines(value);
      // The documented costs: a continuation line that is JSON on its own, or that completes the garbage's string.
      fc.pre(!hasJsonContinuationLine(record) && !garbageClosesOnFirstLine(garbage, record));
      const eol = crlf ? '\r\n' : '\n';
      const input = encodeUtf8(`${garbage}${eol}${record}${eol}{"type":"after"}${eol}`);
      const expected = JSON.parse(JSON.stringify(value)) as unknown;
      for (const chunks of [[input], cutAt(input, cuts), cutBySizes(input, [1])]) {
        const records = tokenize(chunks).items.filter(isRecord);
        expect(records.at(-1)?.value).toEqual({ type: 'after' });
        expect(records.at(-2)).toMatchObject({ value: expected, text: record });
      }
    },
  );
});
