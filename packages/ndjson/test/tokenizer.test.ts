import {
  createNdjsonTokenizer,
  MAX_RECORD_BYTES_CAP,
  type NdjsonItem,
  type NdjsonRecord,
} from '@cursor-stream/ndjson';
import { cutBySizes } from '@cursor-stream/test-kit/chunking';
import { describe, expect, test } from 'vitest';
import { encodeUtf8, tokenize } from './support.ts';

const values = (items: NdjsonItem[]) => items.map((item) => ('value' in item ? item.value : item.code));

describe('line splitting', () => {
  test('records carry their physical line, byte offset and byte length with the terminator', () => {
    const { items } = tokenize([encodeUtf8('{"a":1}\n{"b":"é"}\r\n{"c":3}')]);
    expect(items).toEqual([
      { value: { a: 1 }, text: '{"a":1}', line: 1, offset: 0, length: 8 },
      { value: { b: 'é' }, text: '{"b":"é"}', line: 2, offset: 8, length: 12 },
      { value: { c: 3 }, text: '{"c":3}', line: 3, offset: 20, length: 7 },
    ]);
  });

  test('a CRLF split across chunks is one line terminator', () => {
    const { items, skips } = tokenize(['{"a":1}\r', '\n{"b":2}\r', '\n']);
    expect(values(items)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(items.map((item) => item.length)).toEqual([9, 9]);
    expect(skips).toEqual([]);
  });

  test('a lone CR, U+2028 and U+2029 never split a line', () => {
    const text = '{"a":"x\u2028y\u2029z"}\n{"b":1}\r{"c":2}\n';
    const { items } = tokenize([encodeUtf8(text)]);
    expect(items[0]).toMatchObject({ value: { a: 'x\u2028y\u2029z' }, line: 1 });
    // The lone CR leaves `{"b":1}\r{"c":2}` on one line, which is not JSON.
    expect(items[1]).toMatchObject({ code: 'invalid-json', line: 2 });
  });

  test('a character split across chunks byte by byte decodes intact', () => {
    const text = '{"t":"読み込み中 👩‍👩‍👧 🇯🇵 𝄞"}\n';
    expect(values(tokenize(cutBySizes(encodeUtf8(text), [1])).items)).toEqual([
      { t: '読み込み中 👩‍👩‍👧 🇯🇵 𝄞' },
    ]);
  });

  test('a leading byte order mark is skipped and accounted for, one elsewhere is not', () => {
    const { items, skips } = tokenize([
      new Uint8Array([0xef, 0xbb]),
      new Uint8Array([0xbf]),
      encodeUtf8('{"a":1}\n'),
    ]);
    expect(items).toEqual([{ value: { a: 1 }, text: '{"a":1}', line: 1, offset: 3, length: 8 }]);
    expect(skips).toEqual([{ reason: 'byte-order-mark', line: 1, offset: 0, length: 3 }]);
    expect(tokenize(['{"a":1}\n\uFEFF{"b":2}\n']).items[1]).toMatchObject({ code: 'invalid-json', line: 2 });
  });

  test('blank lines are skipped but still count in line numbers', () => {
    const { items, skips } = tokenize(['\n\r\n  \t\n{"a":1}\n\n']);
    expect(items).toEqual([{ value: { a: 1 }, text: '{"a":1}', line: 4, offset: 7, length: 8 }]);
    expect(skips.map((s) => [s.line, s.offset, s.length])).toEqual([
      [1, 0, 1],
      [2, 1, 2],
      [3, 3, 4],
      [5, 15, 1],
    ]);
  });

  test('the last record is read at the end of input without a line feed', () => {
    const tokenizer = createNdjsonTokenizer();
    expect(tokenizer.feed('{"a":1}\n{"b":2}')).toEqual([
      { value: { a: 1 }, text: '{"a":1}', line: 1, offset: 0, length: 8 },
    ]);
    expect(tokenizer.end()).toEqual([{ value: { b: 2 }, text: '{"b":2}', line: 2, offset: 8, length: 7 }]);
  });

  test('a line of megabytes fed in small chunks is one record', () => {
    const big = { type: 'tool_call', content: 'x'.repeat(3_000_000) };
    const { items } = tokenize(cutBySizes(encodeUtf8(`${JSON.stringify(big)}\n`), [4096]));
    expect(items).toHaveLength(1);
    expect((items[0] as NdjsonRecord).value).toEqual(big);
  });
});

describe('raw line breaks inside strings', () => {
  const escaped =
    '{"type":"tool_call","call_id":"call_PFAupCWibROFKbdASSdiHCoi\\nfc_0d2609f619ccdca8","n":1}';
  const raw = escaped.replace('\\n', '\n');

  test('a call_id written with a raw LF parses to exactly the escaped form', () => {
    const fromRaw = tokenize([encodeUtf8(`${raw}\n{"next":true}\n`)]).items;
    const fromEscaped = tokenize([encodeUtf8(`${escaped}\n`)]).items;
    expect(fromRaw[0]).toMatchObject({
      value: (fromEscaped[0] as NdjsonRecord).value,
      text: raw,
      line: 1,
      offset: 0,
    });
    expect(fromRaw[1]).toMatchObject({ value: { next: true }, line: 3 });
  });

  test('a raw CRLF inside a string stays part of the value', () => {
    const { items } = tokenize(['{"result":"line one\r\nline two"}\r\n']);
    expect(values(items)).toEqual([{ result: 'line one\r\nline two' }]);
  });

  test('blank physical lines inside a string are string content, not skipped lines', () => {
    const { items, skips } = tokenize(['{"result":"**Plan**\n\n\nBlockers: none."}\n']);
    expect(values(items)).toEqual([{ result: '**Plan**\n\n\nBlockers: none.' }]);
    expect(skips).toEqual([]);
  });

  test('a backslash right before a raw LF reads as the escape \\n', () => {
    expect(values(tokenize(['{"a":"x\\\ny"}\n']).items)).toEqual([{ a: 'x\ny' }]);
  });

  test('a raw tab inside a string is accepted as a tab', () => {
    expect(values(tokenize(['{"a":"x\ty"}\n']).items)).toEqual([{ a: 'x\ty' }]);
  });
});

describe('recovery', () => {
  test('a line that is not JSON becomes a located problem and the stream goes on', () => {
    const { items } = tokenize(['{"a":1}\nActionRequiredError: Named models unavailable\n{"b":2}\n']);
    expect(items[1]).toEqual({
      code: 'non-json-output',
      message: 'ActionRequiredError: Named models unavailable',
      line: 2,
      offset: 8,
      length: 46,
      excerpt: 'ActionRequiredError: Named models unavailable',
    });
    expect(values(items)).toEqual([{ a: 1 }, 'non-json-output', { b: 2 }]);
  });

  test('an unterminated string gives way to the next complete object as soon as that line arrives', () => {
    const tokenizer = createNdjsonTokenizer();
    expect(tokenizer.feed('{"type":"assistant","text":"cut off here\n')).toEqual([]);
    const onNextLine = tokenizer.feed('{"type":"result","result":"ok"}\n');
    expect(onNextLine).toEqual([
      {
        code: 'unterminated-string',
        message: 'record ends inside a string; line 2 starts a new record',
        line: 1,
        offset: 0,
        length: 41,
        excerpt: '{"type":"assistant","text":"cut off here',
      },
      {
        value: { type: 'result', result: 'ok' },
        text: '{"type":"result","result":"ok"}',
        line: 2,
        offset: 41,
        length: 32,
      },
    ]);
  });

  test('noise lines that open a quote do not swallow the records after them', () => {
    const { items } = tokenize(['T: "Named models\n{"a":1}\nPress any key to sign in...\n{"b":2}\n']);
    expect(values(items)).toEqual(['non-json-output', { a: 1 }, 'non-json-output', { b: 2 }]);
  });

  test('input that ends inside a record is reported as truncated', () => {
    expect(tokenize(['{"a":1}\n{"type":"tool_call","call_id":"call_']).items[1]).toMatchObject({
      code: 'truncated',
      line: 2,
      offset: 8,
      length: 36,
    });
    expect(tokenize(['{"a":"open\nstill open\n']).items).toEqual([
      expect.objectContaining({ code: 'truncated', line: 1, offset: 0, length: 22 }),
    ]);
  });

  test('values that are not objects are problems only when objectsOnly is set', () => {
    const input = '42\n"text"\n[1]\nnull\n{"a":1}\n';
    expect(values(tokenize([input]).items)).toEqual([42, 'text', [1], null, { a: 1 }]);
    const strict = tokenize([input], { objectsOnly: true }).items;
    expect(values(strict)).toEqual([
      'not-an-object',
      'not-an-object',
      'not-an-object',
      'not-an-object',
      { a: 1 },
    ]);
    expect(strict[2]).toMatchObject({
      message: 'expected a JSON object, got an array',
      line: 3,
      offset: 10,
      length: 4,
    });
  });

  test('nothing thrown on bad input reaches the caller; misuse throws', () => {
    const tokenizer = createNdjsonTokenizer();
    expect(() => tokenizer.feed(new Uint8Array([0xff, 0xfe, 0x00, 0x0a, 0xc3]))).not.toThrow();
    tokenizer.end();
    expect(() => tokenizer.feed('{}')).toThrow(/after end\(\)/);
    expect(() => createNdjsonTokenizer().feed(42 as unknown as string)).toThrow(TypeError);
    expect(() => createNdjsonTokenizer({ maxRecordBytes: 0 })).toThrow(RangeError);
  });

  test('a maxRecordBytes the runtime could not hold as one string is refused with the cap in the message', () => {
    expect(() => createNdjsonTokenizer({ maxRecordBytes: MAX_RECORD_BYTES_CAP + 1 })).toThrow(
      new RegExp(`at most ${MAX_RECORD_BYTES_CAP} `),
    );
    expect(() => createNdjsonTokenizer({ maxRecordBytes: 2 ** 30 })).toThrow(RangeError);
    expect(() => createNdjsonTokenizer({ maxRecordBytes: MAX_RECORD_BYTES_CAP })).not.toThrow();
  });

  test('reset reads a new stream from its first byte', () => {
    const tokenizer = createNdjsonTokenizer();
    tokenizer.feed('{"a":1}\n{"open":"');
    tokenizer.end();
    tokenizer.reset();
    expect([...tokenizer.feed('\uFEFF{"b":2}\n'), ...tokenizer.end()]).toEqual([
      { value: { b: 2 }, text: '{"b":2}', line: 1, offset: 3, length: 8 },
    ]);
  });
});

describe('bounded memory', () => {
  test('a record above maxRecordBytes is reported as oversize and skipped to the next line feed', () => {
    const tokenizer = createNdjsonTokenizer({ maxRecordBytes: 100 });
    const items: NdjsonItem[] = [...tokenizer.feed('{"a":1}\n{"big":"')];
    for (let i = 0; i < 50; i++) {
      items.push(...tokenizer.feed('x'.repeat(40)));
      expect(tokenizer.bufferedBytes).toBeLessThanOrEqual(100);
    }
    items.push(...tokenizer.feed('"}\n{"b":2}\n'), ...tokenizer.end());
    expect(items).toEqual([
      { value: { a: 1 }, text: '{"a":1}', line: 1, offset: 0, length: 8 },
      {
        code: 'oversize',
        message: 'record is larger than maxRecordBytes (100 bytes); skipped to the next line',
        line: 2,
        offset: 8,
        length: 2011,
        // The record's head, as if it had come in one chunk.
        excerpt: `{"big":"${'x'.repeat(112)}…`,
      },
      { value: { b: 2 }, text: '{"b":2}', line: 3, offset: 2019, length: 8 },
    ]);
  });

  test('a byte order mark fed byte by byte under a 1-byte limit is counted once, as in one chunk', () => {
    const bytes = encodeUtf8('\uFEFF{"a":1}\n');
    const whole = tokenize([bytes], { maxRecordBytes: 1 });
    expect(whole.skips).toEqual([{ reason: 'byte-order-mark', line: 1, offset: 0, length: 3 }]);
    expect(whole.items).toEqual([expect.objectContaining({ code: 'oversize', offset: 3, length: 8 })]);
    expect(tokenize(cutBySizes(bytes, [1]), { maxRecordBytes: 1 })).toEqual(whole);
  });

  test('a record that arrives whole in one chunk is held to the same limit', () => {
    const { items } = tokenize([`{"big":"${'y'.repeat(500)}"}\n{"b":2}\n`], { maxRecordBytes: 100 });
    expect(values(items)).toEqual(['oversize', { b: 2 }]);
  });

  test('a chunk of a whole file, many times the bytes decoded at once, reads as the same bytes fed in small chunks', () => {
    // Lines of multi-byte characters, one with a raw line break inside a string and one not JSON, repeated past 40 MiB,
    // so that the pieces a large chunk is read in end inside lines, inside strings and inside characters.
    const lines = [
      `{"type":"thinking","text":"${'é€😀'.repeat(150)}"}\n`,
      '{"call_id":"a\nb","n":1}\n',
      'not json\n',
    ].join('');
    const bytes = encodeUtf8(
      `\uFEFF${lines.repeat(Math.ceil((41 * 1024 * 1024) / encodeUtf8(lines).length))}`,
    );
    const whole = tokenize([bytes]);
    expect(tokenize(cutBySizes(bytes, [65_536, 65_535]))).toEqual(whole);
    expect(whole.items.filter((item) => 'value' in item)).toHaveLength((whole.items.length / 3) * 2);
  });

  test('a record continued over raw line breaks is held to the limit as a whole', () => {
    const lines = Array.from({ length: 20 }, () => 'z'.repeat(30)).join('\n');
    const { items } = tokenize([`{"t":"${lines}"}\n{"b":2}\n`], { maxRecordBytes: 200 });
    expect(values(items)).toEqual(['oversize', { b: 2 }]);
    expect(items[1]).toMatchObject({ line: 21 });
  });
});

describe('skipping records unparsed', () => {
  const thinking = (text: string) => text.startsWith('{"type":"thinking"');

  test('records the caller turns down are passed over and reported as filtered skips', () => {
    const { items, skips } = tokenize(['{"type":"thinking","text":"hm"}\n{"type":"assistant"}\r\n'], {
      skipRecord: thinking,
    });
    expect(items).toEqual([
      { value: { type: 'assistant' }, text: '{"type":"assistant"}', line: 2, offset: 32, length: 22 },
    ]);
    expect(skips).toEqual([{ reason: 'filtered', line: 1, offset: 0, length: 32 }]);
  });

  test('a turned-down line that ends inside a string is still read as a record continued on the next line', () => {
    const { items, skips } = tokenize(['{"type":"thinking","text":"two\nlines"}\n'], {
      skipRecord: thinking,
    });
    expect(items).toEqual([
      expect.objectContaining({ value: { type: 'thinking', text: 'two\nlines' }, line: 1, length: 39 }),
    ]);
    expect(skips).toEqual([]);
  });
});

describe('callbacks and returned arrays', () => {
  test('items taken by a callback are not returned as well', () => {
    const records: NdjsonRecord[] = [];
    const tokenizer = createNdjsonTokenizer({ onRecord: (record) => records.push(record) });
    const returned = [...tokenizer.feed('{"a":1}\n{not json\n'), ...tokenizer.end()];
    expect(records.map((r) => r.value)).toEqual([{ a: 1 }]);
    expect(returned).toEqual([expect.objectContaining({ code: 'invalid-json', line: 2 })]);
  });
});
