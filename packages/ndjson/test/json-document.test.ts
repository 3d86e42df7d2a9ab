/**
 * Reading a JSON document of records (`documents: true`): an array of them, compact or pretty-printed, or records
 * pretty-printed one after another. The tokenizer's invariants hold for such a stream too: chunking never matters,
 * every byte is accounted for, the records are the values written, a record cut short loses only itself, and the
 * bytes held stay under the limit. A stream that is not a document reads exactly as lines.
 */
import {
  createNdjsonTokenizer,
  type NdjsonItem,
  type NdjsonProblem,
  type NdjsonRecord,
} from '@cursor-stream/ndjson';
import { cutAt, cutBySizes } from '@cursor-stream/test-kit/chunking';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  documentArbitrary,
  encodeUtf8,
  expectEveryByteOnce,
  renderDocument,
  tokenize,
  trickyJsonObject,
} from './support.ts';

const DOCUMENTS = { documents: true, objectsOnly: true } as const;

const isRecord = (item: NdjsonItem): item is NdjsonRecord => 'value' in item;
const isProblem = (item: NdjsonItem): item is NdjsonProblem => 'code' in item;

/** Each item a document gives, as its line and its record's value or its problem's code. */
function linesRead(text: string): [number, unknown][] {
  return tokenize([encodeUtf8(text)], DOCUMENTS).items.map((item) => [
    item.line,
    isRecord(item) ? item.value : item.code,
  ]);
}

/** The ways people keep a list of records as one JSON document. */
const layoutArbitrary = fc.constantFrom(
  'jq-slurp', // jq -s .
  'jq-slurp-compact', // jq -s -c .
  'bracketed-lines', // `[`, the lines joined by commas, `]`
  'jq-pretty', // jq . (records one after another)
  'python-indent-4', // json.dump(records, indent=4)
  'indent-0', // json.dump(records, indent=0): every line at column 0
  'jq-pretty-indent-0', // records one after another, every line at column 0
  'jq-tab', // jq --tab -s .
  'tab-joined', // `[` + each record indented with tabs, joined by `, ` on the line of the last one's `}` + `]`
  'empty-array',
);

type Layout = typeof layoutArbitrary extends fc.Arbitrary<infer T> ? T : never;

function writeDocument(values: readonly unknown[], layout: Layout, eol: string): string {
  let text: string;
  switch (layout) {
    case 'jq-slurp':
      text = JSON.stringify(values, null, 2);
      break;
    case 'jq-slurp-compact':
      text = JSON.stringify(values);
      break;
    case 'bracketed-lines':
      text = `[\n${values.map((value) => JSON.stringify(value)).join(',\n')}\n]`;
      break;
    case 'jq-pretty':
      text = values.map((value) => JSON.stringify(value, null, 2)).join('\n');
      break;
    case 'python-indent-4':
      text = JSON.stringify(values, null, 4);
      break;
    case 'indent-0':
      text = withoutIndent(JSON.stringify(values, null, 2));
      break;
    case 'jq-pretty-indent-0':
      text = values.map((value) => withoutIndent(JSON.stringify(value, null, 2))).join('\n');
      break;
    case 'jq-tab':
      text = JSON.stringify(values, null, '\t');
      break;
    case 'tab-joined':
      text = `[${values.map((value) => JSON.stringify(value, null, '\t')).join(', ')}]`;
      break;
    case 'empty-array':
      text = '[]';
      break;
  }
  return `${text.replaceAll('\n', eol)}${eol}`;
}

/** Pretty-printed JSON with its indentation taken away: its strings hold no line break, so only layout goes. */
function withoutIndent(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimStart())
    .join('\n');
}

/** Values a layout holds: a pretty-printed stream of records is read only when it opens with a `{` alone on its line. */
function valuesOf(values: readonly Record<string, unknown>[], layout: Layout): Record<string, unknown>[] {
  if (layout === 'empty-array') return [];
  // As written: JSON has no -0.
  return JSON.parse(JSON.stringify(values));
}

/**
 * `chunks`, each copied in turn into the same Node `Buffer` before it is given, as a reader that reads into one buffer
 * gives them: nothing may keep a chunk's bytes past the call that takes it.
 */
function* throughOneBuffer(chunks: readonly (Uint8Array | string)[]): Generator<Uint8Array> {
  const bytes = chunks.map((chunk) => (typeof chunk === 'string' ? encodeUtf8(chunk) : chunk));
  const shared = Buffer.alloc(Math.max(1, ...bytes.map((chunk) => chunk.length)));
  for (const chunk of bytes) {
    shared.fill(0x20);
    shared.set(chunk);
    yield shared.subarray(0, chunk.length);
  }
}

/** A document's records, each non-empty so that the pretty-printed stream's first line is a lone `{`. */
const recordsArbitrary = fc.array(
  trickyJsonObject.map((value) => ({ type: 'record', ...value })),
  { minLength: 1, maxLength: 8 },
);

describe('documents', () => {
  test.prop([recordsArbitrary, layoutArbitrary, fc.boolean(), fc.array(fc.nat(), { maxLength: 12 })])(
    'every layout gives back the records written, with no problem, whatever the chunks',
    (values, layout, crlf, cuts) => {
      const text = writeDocument(values, layout, crlf ? '\r\n' : '\n');
      const { items } = tokenize(throughOneBuffer(cutAt(encodeUtf8(text), cuts)), DOCUMENTS);
      expect(items.filter(isProblem)).toEqual([]);
      expect(items.filter(isRecord).map((record) => record.value)).toEqual(valuesOf(values, layout));
    },
  );

  test.prop([recordsArbitrary, layoutArbitrary, fc.boolean(), fc.array(fc.nat(), { maxLength: 12 })])(
    "records and skips cover every byte once, in order, and a record's text is its bytes",
    (values, layout, crlf, cuts) => {
      const bytes = encodeUtf8(writeDocument(values, layout, crlf ? '\r\n' : '\n'));
      const run = tokenize(cutAt(bytes, cuts), DOCUMENTS);
      const { items, skips } = run;
      expectEveryByteOnce(run, bytes.length);
      const decoder = new TextDecoder();
      for (const record of items.filter(isRecord))
        expect(decoder.decode(bytes.subarray(record.offset, record.offset + record.length))).toBe(
          record.text,
        );
      for (const skip of skips) expect(skip.reason).toBe('document-syntax');
    },
  );

  test.prop([recordsArbitrary, fc.nat(), fc.nat(), fc.array(fc.nat(), { maxLength: 8 })])(
    'a record cut short anywhere in a pretty-printed array loses only itself',
    (values, which, keep, cuts) => {
      const cutIndex = which % values.length;
      const pretty = values.map((value) => JSON.stringify(value, null, 2).replaceAll('\n', '\n  '));
      const whole = pretty[cutIndex] as string;
      // Cut before its last line, so that it never closes.
      const lastLine = whole.lastIndexOf('\n');
      const cutLength = 1 + (keep % Math.max(1, lastLine));
      const elements = pretty.map((text, index) => (index === cutIndex ? whole.slice(0, cutLength) : text));
      const text = `[\n  ${elements.join(',\n  ')}\n]\n`;
      const { items } = tokenize(cutAt(encodeUtf8(text), cuts), DOCUMENTS);
      const expected = JSON.parse(JSON.stringify(values.filter((_, index) => index !== cutIndex)));
      expect(items.filter(isRecord).map((record) => record.value)).toEqual(expected);
      expect(items.filter(isProblem).length).toBeGreaterThanOrEqual(1);
    },
  );

  test.prop([
    fc.array(fc.uint8Array({ maxLength: 120 }), { maxLength: 12 }),
    fc.constantFrom('[{', '{\n', '[\n', '[]'),
    fc.integer({ min: 1, max: 64 }),
  ])(
    'garbage after a document start never throws, keeps every byte accounted for, holds no more than the limit',
    (chunks, start, maxRecordBytes) => {
      const skips: number[] = [];
      const { items, skips: skipped } = tokenize([encodeUtf8(start), ...chunks], {
        ...DOCUMENTS,
        maxRecordBytes,
      });
      for (const skip of skipped) skips.push(skip.length);
      const covered = [...items.map((item) => item.length), ...skips].reduce(
        (sum, length) => sum + length,
        0,
      );
      expect(covered).toBe(start.length + chunks.reduce((sum, chunk) => sum + chunk.length, 0));
      expect(
        tokenize(cutBySizes(encodeUtf8(start), [1]).concat(chunks), { ...DOCUMENTS, maxRecordBytes }),
      ).toEqual(tokenize([encodeUtf8(start), ...chunks], { ...DOCUMENTS, maxRecordBytes }));
    },
  );

  test.prop([
    fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 12 }),
    fc.integer({ min: 1, max: 64 }),
  ])('the bytes held between calls never exceed maxRecordBytes', (chunks, maxRecordBytes) => {
    const tokenizer = createNdjsonTokenizer({ ...DOCUMENTS, maxRecordBytes });
    for (const chunk of [encodeUtf8('[\n{"a":"'), ...chunks]) {
      tokenizer.feed(chunk);
      expect(tokenizer.bufferedBytes).toBeLessThanOrEqual(maxRecordBytes);
    }
    tokenizer.end();
  });

  test.prop([documentArbitrary, fc.array(fc.nat(), { maxLength: 10 })])(
    'a stream that does not start like a document reads exactly as lines',
    (doc, cuts) => {
      const text = `{"type":"first"}\n${renderDocument({ ...doc, bom: false })}`;
      const bytes = encodeUtf8(text);
      expect(tokenize(cutAt(bytes, cuts), DOCUMENTS)).toEqual(tokenize([bytes], { objectsOnly: true }));
    },
  );

  it('reads the lines of a stream whose first bytes only look like the start of an array', () => {
    for (const text of ['[info] starting\n{"type":"a"}\n', '[1,2]\n{"type":"a"}\n', '{"type":"a"}\n[\n']) {
      const bytes = encodeUtf8(text);
      expect(tokenize([bytes], DOCUMENTS)).toEqual(tokenize([bytes], { objectsOnly: true }));
    }
  });

  it('locates each record where it starts, and each problem on its line', () => {
    const text = [
      '[',
      '  {',
      '    "type": "system"',
      '  },',
      '  Error: the agent stopped',
      '  {"type": "result"},',
      '  42',
      ']',
      'trailing words',
      '',
    ].join('\n');
    expect(linesRead(text)).toEqual([
      [2, { type: 'system' }],
      [5, 'non-json-output'],
      [6, { type: 'result' }],
      [7, 'not-an-object'],
      [9, 'non-json-output'],
    ]);
  });

  it('gives up a cut element at the next element at its column, and reads that one', () => {
    // Cut inside a string, or between two fields: a pretty-printer escapes every line break, so the next line that
    // starts an element at the cut one's column starts a record.
    for (const cut of ['"cut here', '"cut"']) {
      const text = `{\n  "type": "thinking",\n  "text": ${cut}\n{\n  "type": "result"\n}\n`;
      expect(linesRead(text)).toEqual([
        [1, 'truncated'],
        [4, { type: 'result' }],
      ]);
    }
  });

  it('counts a line feed after a backslash, and reads on past a record cut after one', () => {
    const text = '[{"a":"\\\n"},\n{"b":1},\n{"c":"\\\n{"d":2}\n]\n';
    expect(linesRead(text)).toEqual([
      [1, { a: '\n' }],
      [3, { b: 1 }],
      [4, 'truncated'],
      [5, { d: 2 }],
    ]);
  });

  it('gives up a record cut on the first line of an array at its siblings, a column before it', () => {
    const text = '[{"type":"a","message":{"content":\n{"type":"b"},\n{"type":"c"}]\n';
    expect(linesRead(text)).toEqual([
      [1, 'truncated'],
      [2, { type: 'b' }],
      [3, { type: 'c' }],
    ]);
  });

  it('reads on after text between the records of an array, whatever it starts with', () => {
    const cases: [string, unknown[]][] = [
      [
        '[\n {"a":1},\n "cut string\n {"b":2},\n {"c":3}\n]\n',
        [
          [2, { a: 1 }],
          [3, 'invalid-json'],
          [4, { b: 2 }],
          [5, { c: 3 }],
        ],
      ],
      [
        '[\n{"type":"a"}\nnote {\n{"type":"b"}\n{"type":"c"}\n',
        [
          [2, { type: 'a' }],
          [3, 'invalid-json'],
          [4, { type: 'b' }],
          [5, { type: 'c' }],
        ],
      ],
    ];
    for (const [text, expected] of cases) {
      expect(linesRead(text)).toEqual(expected);
    }
  });

  it('reads a line of words that starts like a number as one problem, as a line of them would be', () => {
    const line = "2026-01-01 12:00:00 RetriableError: [invalid_argument] unknown option '--system-prompt'";
    const text = `[\n{"type":"a"},\n${line}\n{"type":"b"}\n]\n`;
    const { items } = tokenize([encodeUtf8(text)], DOCUMENTS);
    expect(items.map((item) => [item.line, isRecord(item) ? item.value : [item.code, item.excerpt]])).toEqual(
      [
        [2, { type: 'a' }],
        [3, ['invalid-json', line]],
        [4, { type: 'b' }],
      ],
    );
  });

  it("says the agent's words between an array's records without the comma after them", () => {
    const text = `[\n{"type":"a"},\n  Error: unknown option '--system-prompt',\n{"type":"b"}\n]\n`;
    const problems = tokenize([encodeUtf8(text)], DOCUMENTS).items.filter(isProblem);
    expect(problems.map(({ code, message, line }) => [code, message, line])).toEqual([
      ['non-json-output', "Error: unknown option '--system-prompt'", 3],
    ]);
  });

  it('gives up a record cut where no value may come, printed without indentation too', () => {
    const cases: [string, unknown[]][] = [
      [
        '{\n"type": "a"\n{\n"type": "b"\n}\n{\n"type": "c"\n}\n',
        [
          [1, 'truncated'],
          [3, { type: 'b' }],
          [6, { type: 'c' }],
        ],
      ],
      [
        '[\n{\n"type"\n{\n"type": "b"\n},\n{\n"type": "c"\n}\n]\n',
        [
          [2, 'truncated'],
          [4, { type: 'b' }],
          [7, { type: 'c' }],
        ],
      ],
    ];
    for (const [text, expected] of cases) {
      expect(linesRead(text)).toEqual(expected);
    }
  });

  it('reports an element over the limit as oversize and reads on', () => {
    const big = JSON.stringify({ type: 'tool', output: 'x'.repeat(200) });
    const text = `[\n${big},\n{"type":"after"}\n]\n`;
    const { items } = tokenize([encodeUtf8(text)], { ...DOCUMENTS, maxRecordBytes: 100 });
    expect(items.map((item) => [item.line, isRecord(item) ? item.value : item.code])).toEqual([
      [2, 'oversize'],
      [3, { type: 'after' }],
    ]);
  });
});
