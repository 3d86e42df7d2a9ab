/**
 * A reader of the official dialect's hot records (a `thinking` delta or completion, an `assistant` message), read
 * without `JSON.parse` once their layout is learnt, gives exactly what the eager path gives: for any such record,
 * however written (escapes, unicode, key order, whitespace, extra fields, duplicate keys, numbers in every form,
 * broken lines between them) and however chunked, the same record values, key order included, and the same events
 * and problems at the same places. Likewise the lines of a `thinking` delta taken without a value (`hotLines`): the
 * same events, and every record left out of `onRecord` one its schema accepts, strict or open.
 */
import {
  BUILT_IN_DIALECTS,
  type CanonicalEvent,
  createNormalizer,
  createRecordReader,
  type Dialect,
  type RecordReader,
  stringifyEvent,
} from '@cursor-stream/core';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { OFFICIAL_RECORD_SHAPES } from '../src/generated/official-record-shapes.ts';
import { LEARN_AT_RECORD } from '../src/record-readers/line-templates.ts';

/** Lines the fast path read, across the whole suite, so that the last test can tell it really ran. */
let readByTemplate = 0;

function countingReader(reader: RecordReader): RecordReader {
  return {
    read(text) {
      const value = reader.read(text);
      if (value !== undefined) readByTemplate += 1;
      return value;
    },
    learn: (text, record) => reader.learn(text, record),
  };
}

/** The built-in dialects, the official one with a fresh reader, or as it is (the eager path). */
function dialectsWith(reader: RecordReader | undefined): Dialect[] {
  return BUILT_IN_DIALECTS.map((dialect) =>
    dialect.name === 'official' && reader !== undefined ? { ...dialect, recordReader: reader } : dialect,
  );
}

interface Outcome {
  /** Each record as the normalizer saw it: line, offset and its value written back, key order included. */
  records: string[];
  events: string[];
  /** The events themselves, for a deep comparison besides their text. */
  values: CanonicalEvent[];
}

function normalizeIn(chunks: readonly Uint8Array[], reader: RecordReader | undefined): Outcome {
  const records: string[] = [];
  const normalizer = createNormalizer({
    dialects: dialectsWith(reader),
    onRecord(record) {
      records.push(`${record.line}:${record.offset}:${JSON.stringify(record.value)}`);
    },
  });
  const values: CanonicalEvent[] = [];
  for (const chunk of chunks) values.push(...normalizer.feed(chunk));
  values.push(...normalizer.end());
  return { records, events: values.map((event) => stringifyEvent(event)), values };
}

// ---- How a record may be written ----

/** A character of the private use area standing for bytes that are not UTF-8 in a record's line. */
const RAW_BYTES_MARK = '\ue000';
/** Byte sequences the decoder reads as U+FFFD: a stray continuation, a cut sequence, an overlong form, 0xff. */
const NOT_UTF8: readonly (readonly number[])[] = [
  [0x80],
  [0xe4, 0xb8],
  [0xc0, 0xaf],
  [0xff],
  [0xf0, 0x9d, 0x84],
];

/** Characters a string may hold: the ones JSON must escape, ones it may, multi-byte ones, lone surrogates. */
const CHARACTER = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'Z', ' ', '0', '.', 'token') },
  {
    weight: 3,
    arbitrary: fc.constantFrom('"', '\\', '/', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u001f', '\u007f'),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom('é', '中文', '\u2028', '\u2029', '𝄞', '👩‍👩‍👧', '\ufeff', '\ufffd'),
  },
  { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udfff', '\udc00x') },
  // Stands for bytes that are not UTF-8 (see `bytesOf`).
  { weight: 1, arbitrary: fc.constant(RAW_BYTES_MARK) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
);

/**
 * One character of a string as written: raw where JSON allows it, else (or by choice) escaped, in either form; now
 * and then a control character raw, as JSON does not allow.
 */
function writeCharacter(character: string, style: number): string {
  const code = character.charCodeAt(0);
  const unicode = `\\u${code.toString(16).padStart(4, '0')}`;
  const short: Record<string, string> = {
    '"': '\\"',
    '\\': '\\\\',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\b': '\\b',
    '\f': '\\f',
  };
  const mustEscape = code < 0x20 || character === '"' || character === '\\';
  if (style % 5 === 4 && character.length === 1) return style % 2 === 0 ? unicode : unicode.toUpperCase();
  if (character === '/' && style % 3 === 0) return '\\/';
  if (!mustEscape) return character;
  // A raw control character (a tab pasted in, say): a line JSON does not allow, so a problem on both paths.
  if (style === 18 && code < 0x20 && character !== '\n') return character;
  return short[character] ?? unicode;
}

/** A JSON string as written: its characters, each in a style. */
const WRITTEN_STRING = fc
  .array(fc.tuple(CHARACTER, fc.nat(19)), { maxLength: 6 })
  .map(
    (parts) =>
      `"${parts.map(([text, style]) => [...text].map((c) => writeCharacter(c, style)).join('')).join('')}"`,
  );

/** A plain string, as most records hold: the same few, so that layouts repeat. */
const PLAIN_STRING = fc.constantFrom(
  '"a"',
  '" the"',
  '"uuid-1"',
  '""',
  '"f8d5b6d7-6f40-4225-a31f-b9b441015f0b"',
);

const STRING = fc.oneof({ weight: 4, arbitrary: PLAIN_STRING }, { weight: 2, arbitrary: WRITTEN_STRING });

/** A number in every form JSON has, and some it has not (a problem then, the same on both paths). */
const NUMBER = fc.oneof(
  { weight: 12, arbitrary: fc.nat().map(String) },
  { weight: 2, arbitrary: fc.constantFrom('1789713263995', '0', '999999999999999', '1000000000000000') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '-0',
      '-1',
      '1.0',
      '1.5',
      '1e3',
      '1E+3',
      '10e-1',
      '12345678901234567890',
      '9007199254740993',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('01', '+1', '.5', '1.', 'NaN', '0x1') },
);

/** Whitespace between tokens: none mostly, as the agent writes, else any JSON allows (no line feed). */
const GAP = fc.oneof(
  { weight: 12, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom(' ', '\t', '\r', '  ') },
);

/**
 * Characters of the private use area standing for the stream's own spacing after a colon and after a comma (see
 * `STREAM`): a writer other than the agent spaces every record alike, Python's `json.dumps` as `": "` and `", "`.
 */
const COLON_GAP = '\ue001';
const COMMA_GAP = '\ue002';
/** A record's gap that stands for the stream's spacing rather than its own. */
const STREAM_SPACING = 'stream';

type Field = readonly [key: string, value: string];

/** An object from its fields, a gap of one style after each punctuation mark, or the stream's spacing. */
function writeObject(fields: readonly Field[], gap: string): string {
  if (gap === STREAM_SPACING)
    return `{${fields.map(([key, value]) => `${key}:${COLON_GAP}${value}`).join(`,${COMMA_GAP}`)}}`;
  return `{${gap}${fields.map(([key, value]) => `${key}${gap}:${gap}${value}`).join(`${gap},${gap}`)}${gap}}`;
}

/** `arbitrary` once in `odds + 1` draws, else `null`. */
function rarely<T>(arbitrary: fc.Arbitrary<T>, odds: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: odds, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
}

/** The fields of a record, then changed the ways a writer might: reordered, an extra field, a key twice. */
function variedRecord(fields: Field[]) {
  return fc
    .record({
      gap: fc.oneof({ weight: 4, arbitrary: fc.constant(STREAM_SPACING) }, { weight: 1, arbitrary: GAP }),
      order: fc.oneof(
        { weight: 6, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
      rotation: fc.nat(),
      extra: rarely(
        fc.constantFrom<Field>(['"model_call_id"', '"m-1"'], ['"extra"', '1'], ['"x"', '{"y":[]}']),
        5,
      ),
      twice: rarely(fc.nat(), 8),
      keyEscaped: rarely(fc.nat(), 12),
    })
    .map(({ gap, order, rotation, extra, twice, keyEscaped }) => {
      let written = [...fields];
      if (order) {
        const at = rotation % written.length;
        written = [...written.slice(at), ...written.slice(0, at)];
      }
      if (extra !== null) written.splice(rotation % (written.length + 1), 0, extra);
      if (twice !== null) {
        const field = written[twice % written.length] as Field;
        written.push([field[0], '"again"']);
      }
      if (keyEscaped !== null) {
        const at = keyEscaped % written.length;
        const [key, value] = written[at] as Field;
        // `\u0074` is `t`: the same key, written otherwise.
        written[at] = [key.replace('t', '\\u0074'), value];
      }
      return writeObject(written, gap);
    });
}

const SESSION = fc.oneof({ weight: 4, arbitrary: fc.constant('"uuid"') }, { weight: 1, arbitrary: STRING });

const THINKING_DELTA = fc.tuple(STRING, SESSION, NUMBER).chain(([text, session, time]) =>
  variedRecord([
    ['"type"', '"thinking"'],
    ['"subtype"', '"delta"'],
    ['"text"', text],
    ['"session_id"', session],
    ['"timestamp_ms"', time],
  ]),
);

const THINKING_COMPLETED = fc.tuple(SESSION, NUMBER).chain(([session, time]) =>
  variedRecord([
    ['"type"', '"thinking"'],
    ['"subtype"', '"completed"'],
    ['"session_id"', session],
    ['"timestamp_ms"', time],
  ]),
);

const ASSISTANT = fc
  .tuple(STRING, SESSION, NUMBER, fc.constantFrom('"text"', '"text"', '"tool_use"'))
  .chain(([text, session, time, blockType]) =>
    variedRecord([
      ['"type"', '"assistant"'],
      [
        '"message"',
        `{"role":${COLON_GAP}"assistant",${COMMA_GAP}"content":${COLON_GAP}[{"type":${COLON_GAP}${blockType},${COMMA_GAP}"text":${COLON_GAP}${text}}]}`,
      ],
      ['"session_id"', session],
      ['"timestamp_ms"', time],
    ]),
  );

/** A line that is not such a record: broken, blank, or another record. */
const OTHER_LINE = fc.constantFrom(
  '',
  '\r',
  'not json',
  '{"type":"thinking","subtype":"delta","text":"cut',
  '{"type":"thinking","subtype":"delta","text":"a"}}',
  '[1,2]',
  '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"session_id":"uuid"}',
  '{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"uuid","duration_ms":5}',
);

const INIT =
  '{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/w","session_id":"uuid","model":"Auto","permissionMode":"default"}';

/**
 * A stream: the init that names the dialect, then records, mostly of the read shapes, with CRLF endings at times,
 * most records spaced as the stream spaces them: as the agent writes, as Python's `json.dumps` does, otherwise, or
 * with characters JSON does not take for whitespace.
 */
const STREAM = fc
  .tuple(
    fc.array(
      fc.oneof(
        { weight: 6, arbitrary: THINKING_DELTA },
        { weight: 1, arbitrary: THINKING_COMPLETED },
        { weight: 3, arbitrary: ASSISTANT },
        { weight: 1, arbitrary: OTHER_LINE },
      ),
      { minLength: 1, maxLength: 40 },
    ),
    fc.constantFrom('\n', '\n', '\r\n'),
    fc.boolean(),
    // The last two are not JSON's whitespace: problems, the same on both paths.
    fc.constantFrom(
      ['', ''],
      ['', ''],
      [' ', ' '],
      ['\t', ''],
      ['', '  '],
      [' \r', ' '],
      ['\u00a0', ' '],
      ['', '\f'],
    ),
  )
  .map(([lines, ending, lastTerminated, [colonGap, commaGap]]) => {
    const text = [INIT, ...lines]
      .join(ending)
      .replaceAll(COLON_GAP, colonGap as string)
      .replaceAll(COMMA_GAP, commaGap as string);
    return lastTerminated ? `${text}${ending}` : text;
  });

const encoder = new TextEncoder();

/** The UTF-8 bytes of `text`, with each {@link RAW_BYTES_MARK} made bytes that are not UTF-8. */
function bytesOf(text: string): Uint8Array {
  const pieces = text.split(RAW_BYTES_MARK).map((piece) => encoder.encode(piece));
  const bytes: number[] = [];
  pieces.forEach((piece, index) => {
    if (index > 0) bytes.push(...(NOT_UTF8[index % NOT_UTF8.length] ?? []));
    bytes.push(...piece);
  });
  return new Uint8Array(bytes);
}

/** `bytes` cut at the given places. */
function cutBytes(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const places = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const place of places) {
    chunks.push(bytes.subarray(from, place));
    from = place;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

/**
 * Reads `lines` on the eager path and, cut into chunks, with a record reader of the official shapes; checks that both
 * give the same records and events, and gives the number of records the reader's templates read.
 */
function readLikeEager(lines: readonly string[]): number {
  const before = readByTemplate;
  const bytes = encoder.encode(`${lines.join('\n')}\n`);
  const eager = normalizeIn([bytes], undefined);
  const fast = normalizeIn(
    cutBytes(bytes, [5, 200, 201]),
    countingReader(createRecordReader(OFFICIAL_RECORD_SHAPES)),
  );
  expect(fast.records).toEqual(eager.records);
  expect(fast.events).toEqual(eager.events);
  return readByTemplate - before;
}

describe('records read without JSON.parse', () => {
  test.prop([STREAM, fc.array(fc.nat(), { maxLength: 12 })])(
    'give the values, events and problems, at the same places, that the eager path gives',
    (text, cuts) => {
      const bytes = bytesOf(text);
      const eager = normalizeIn([bytes], undefined);
      const fast = normalizeIn(
        cutBytes(bytes, cuts),
        countingReader(createRecordReader(OFFICIAL_RECORD_SHAPES)),
      );
      expect(fast.records).toEqual(eager.records);
      expect(fast.events).toEqual(eager.events);
      expect(fast.values).toEqual(eager.values);
    },
  );

  it('read a stream of one layout after its first record, whatever the strings and numbers', () => {
    const deltas = [' the', 'caf\\u00e9', '中文', '\\"quoted\\"', '𝄞', ''].map(
      (text, index) =>
        `{"type":"thinking","subtype":"delta","text":"${text}","session_id":"uuid","timestamp_ms":${1000 + index}}`,
    );
    // The first delta teaches the layout; every later one is read by it.
    expect(readLikeEager([INIT, ...deltas])).toBe(deltas.length - 1);
  });

  it('read a stream spaced as Python writes it after its first record, and no line spaced otherwise', () => {
    const delta = (text: string, index: number, gap = ' ') =>
      `{"type":${gap}"thinking",${gap}"subtype":${gap}"delta",${gap}"text":${gap}"${text}",${gap}"session_id":${gap}"uuid",${gap}"timestamp_ms":${gap}${1000 + index}}`;
    const deltas = [' the', 'caf\\u00e9', '中文', '\\"quoted\\"', ''].map((text, index) =>
      delta(text, index),
    );
    const lines = [INIT, ...deltas, delta('tab', 9, '\t'), delta('none', 10, ''), delta('more', 11, '  ')];
    // Learnt from the first delta with its spacing; each line spaced otherwise teaches a layout of its own.
    expect(readLikeEager(lines)).toBe(deltas.length - 1);
  });

  it('ran on many records of the property, not only on its fallbacks', () => {
    expect(readByTemplate).toBeGreaterThan(100);
  });
});

/** Lines taken without a value, across the suite, so that the last test can tell the property took many. */
let takenLines = 0;
/** Of which assistant messages. */
let takenAssistantLines = 0;

/**
 * The built-in dialects with the official one's hot lines counted, or with none (the eager path). Layouts are learnt
 * from the first record of each, so that short streams take lines too, unless `learnAt` says otherwise.
 */
function dialectsTakingLines(take: boolean, learnAt: number | 'default' = 1): Dialect[] {
  return BUILT_IN_DIALECTS.map((dialect) => {
    const { hotLines, ...rest } = dialect;
    if (dialect.name !== 'official' || hotLines === undefined) return dialect;
    if (!take) return rest;
    return {
      ...rest,
      hotLines: {
        layouts: hotLines.layouts,
        ...(learnAt === 'default' ? {} : { learnAt }),
        events(line, loc, state) {
          takenLines += 1;
          if (line.record.type === 'assistant') takenAssistantLines += 1;
          return hotLines.events(line, loc, state);
        },
      },
    };
  });
}

interface TakenOutcome {
  events: string[];
  values: CanonicalEvent[];
  /** `line:offset` of each record given to `onRecord`, with its value written back. */
  records: Map<string, unknown>;
}

function normalizeTaking(
  chunks: readonly Uint8Array[],
  take: boolean,
  learnAt: number | 'default' = 1,
): TakenOutcome {
  const records = new Map<string, unknown>();
  const normalizer = createNormalizer({
    dialects: dialectsTakingLines(take, learnAt),
    onRecord(record) {
      records.set(`${record.line}:${record.offset}`, record.value);
    },
    onRecordFor: 'unproven-records',
  });
  const values: CanonicalEvent[] = [];
  for (const chunk of take ? throughOneBuffer(chunks) : chunks) values.push(...normalizer.feed(chunk));
  values.push(...normalizer.end());
  return { records, events: values.map((event) => stringifyEvent(event)), values };
}

/**
 * `chunks`, each copied in turn into the same Node `Buffer` before it is given, as a reader that reads into one buffer
 * gives them: nothing may keep a chunk's bytes past the call that takes it.
 */
function* throughOneBuffer(chunks: readonly Uint8Array[]): Generator<Uint8Array> {
  const shared = Buffer.alloc(Math.max(1, ...chunks.map((chunk) => chunk.length)));
  for (const chunk of chunks) {
    shared.fill(0x20);
    shared.set(chunk);
    yield shared.subarray(0, chunk.length);
  }
}

describe('lines taken without a value', () => {
  test.prop([STREAM, fc.array(fc.nat(), { maxLength: 12 })])(
    'give the events and problems, at the same places, that the eager path gives, and leave out valid records only',
    (text, cuts) => {
      const bytes = bytesOf(text);
      const eager = normalizeTaking([bytes], false);
      const taking = normalizeTaking(cutBytes(bytes, cuts), true);
      expect(taking.events).toEqual(eager.events);
      expect(taking.values).toEqual(eager.values);
      const official = BUILT_IN_DIALECTS.find((dialect) => dialect.name === 'official') as Dialect;
      for (const [where, value] of eager.records) {
        if (taking.records.has(where)) expect(taking.records.get(where)).toEqual(value);
        else {
          const record = value as Record<string, unknown>;
          expect(['thinking', 'assistant']).toContain(record.type);
          expect(official.validate(record, { strict: true })).toEqual([]);
        }
      }
      expect([...taking.records.keys()].every((where) => eager.records.has(where))).toBe(true);
    },
  );

  it('take every delta after the first of a layout, whatever its session id', () => {
    const before = takenLines;
    const delta = (text: string, session: string, time: number) =>
      `{"type":"thinking","subtype":"delta","text":"${text}","session_id":"${session}","timestamp_ms":${time}}`;
    const lines = [
      INIT,
      ...[' the', 'caf\\u00e9', '中文', '\\"quoted\\"', '𝄞', ''].map((text, index) =>
        delta(text, 'uuid', index),
      ),
      delta('x', 'other', 1),
      delta('y', 'other', 12345678901),
      delta('z', 'uuid\\u0021', 3),
      delta('w', 'uuid!', 4),
    ];
    const bytes = encoder.encode(`${lines.join('\n')}\n`);
    const eager = normalizeTaking([bytes], false);
    const taking = normalizeTaking(cutBytes(bytes, [7, 150, 151]), true);
    expect(taking.events).toEqual(eager.events);
    expect(taking.values).toEqual(eager.values);
    // One layout, learnt from the first delta; a session id that changes is read again, not learnt again.
    expect(takenLines - before).toBe(lines.length - 2);
  });

  it('take the lines of a stream spaced as Python writes it, and no line spaced otherwise', () => {
    const before = takenLines;
    const delta = (text: string, session: string, gap = ' ') =>
      `{"type":${gap}"thinking",${gap}"subtype":${gap}"delta",${gap}"text":${gap}"${text}",${gap}"session_id":${gap}"${session}",${gap}"timestamp_ms":${gap}7} `;
    const spaced = [' the', 'caf\\u00e9', '中文', '\\"quoted\\"', ''].map((text) => delta(text, 'uuid'));
    const lines = [
      INIT,
      ...spaced,
      delta('x', 'other'),
      delta('tab', 'other', '\t'),
      delta('none', 'other', ''),
    ];
    const bytes = encoder.encode(`${lines.join('\r\n')}\r\n`);
    const eager = normalizeTaking([bytes], false);
    const taking = normalizeTaking(cutBytes(bytes, [7, 150, 151]), true);
    expect(taking.events).toEqual(eager.events);
    expect(taking.values).toEqual(eager.values);
    // Learnt from the first spaced delta, the space after it too; a line spaced otherwise is learnt from, not taken.
    expect(takenLines - before).toBe(spaced.length);
  });

  it('take the lines of runs that take turns in one log, each with its own session id and message ids', () => {
    const before = takenLines;
    const delta = (text: string, session: string) =>
      `{"type":"thinking","subtype":"delta","text":"${text}","session_id":"${session}","timestamp_ms":1}`;
    const message = (text: string, session: string, call: string) =>
      `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"${text}"}]},"session_id":"${session}","model_call_id":"${call}","timestamp_ms":2}`;
    const sessions = ['run-a', 'run-b', 'run-a', 'run-c', 'run-b', 'run-b', 'run-a', 'run-c', 'run-a'];
    const calls = ['m-1', 'm-1', 'm-2', 'm-1', 'm-2', 'm-1', 'm-1', 'm-3', 'm-2'];
    const lines = [
      INIT,
      ...sessions.map((session, index) => delta(`t${index}`, session)),
      ...sessions.map((session, index) => message(`m${index}`, session, calls[index] as string)),
    ];
    const bytes = encoder.encode(`${lines.join('\n')}\n`);
    const eager = normalizeTaking([bytes], false);
    const taking = normalizeTaking(cutBytes(bytes, [11, 300, 301]), true);
    expect(taking.events).toEqual(eager.events);
    expect(taking.values).toEqual(eager.values);
    expect(new Set(taking.values.map((event) => event.sessionId))).toEqual(
      new Set(['uuid', 'run-a', 'run-b', 'run-c']),
    );
    // Every line but the first of each layout, however the ids take turns.
    expect(takenLines - before).toBe(lines.length - 3);
  });

  it("learn a layout from its 16th record by default, as the official dialect's hot lines leave it", () => {
    const before = takenLines;
    const delta = (index: number) =>
      `{"type":"thinking","subtype":"delta","text":"t${index}","session_id":"uuid","timestamp_ms":${index}}`;
    const deltas = Array.from({ length: 40 }, (_, index) => delta(index));
    const bytes = encoder.encode(`${[INIT, ...deltas].join('\n')}\n`);
    const eager = normalizeTaking([bytes], false);
    const taking = normalizeTaking(cutBytes(bytes, [7, 150, 151]), true, 'default');
    expect(taking.values).toEqual(eager.values);
    // Parsed up to the 16th, learnt from it, taken after it.
    expect(takenLines - before).toBe(deltas.length - LEARN_AT_RECORD);
    expect(LEARN_AT_RECORD).toBe(16);
  });

  it('take assistant messages of one text block, with the text the state decides on as the eager path does', () => {
    const before = takenAssistantLines;
    const message = (text: string, session: string, tail: string) =>
      `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"${text}"}]},"session_id":"${session}"${tail}}`;
    const delta = (text: string, session: string, time: number) =>
      message(text, session, `,"timestamp_ms":${time}`);
    const lines = [
      INIT,
      delta('Hel', 'uuid', 1),
      ...['lo', ' caf\\u00e9', '中文', '\\"q\\"', '𝄞', ''].map((text, index) =>
        delta(text, 'uuid', index + 2),
      ),
      message('Hello café中文\\"q\\"𝄞', 'uuid', ',"model_call_id":"m-1","timestamp_ms":9'),
      message('Hello café中文\\"q\\"𝄞', 'uuid', ',"model_call_id":"m-2","timestamp_ms":10'),
      message('Hello café中文\\"q\\"𝄞', 'uuid', ''),
      delta('x', 'other', 11),
      `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},"session_id":"uuid","timestamp_ms":12}`,
      `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","text":"a"}]},"session_id":"uuid","timestamp_ms":13}`,
      delta('y', 'other', 14),
    ];
    const bytes = encoder.encode(`${lines.join('\n')}\n`);
    const eager = normalizeTaking([bytes], false);
    const taking = normalizeTaking(cutBytes(bytes, [9, 180, 181]), true);
    expect(taking.events).toEqual(eager.events);
    expect(taking.values).toEqual(eager.values);
    // Learnt from the first delta and the first message of each form; several blocks, or one not of text, never.
    expect(takenAssistantLines - before).toBe(9);
  });

  it('keep no view of a chunk: a line at the place of one read before is compared with what that one held', () => {
    const delta = (text: string, session: string) =>
      `{"type":"thinking","subtype":"delta","text":"${text}","session_id":"${session}","timestamp_ms":1}\n`;
    const first = delta('a', 'sess-1');
    // The third session's line lands where the second's was, in the same buffer, over it.
    const chunks = [
      `${INIT}\n`,
      `${first}${delta('b', 'sess-2')}`,
      `${' '.repeat(first.length - 1)}\n${delta('c', 'sess-3')}`,
    ];
    const bytes = chunks.map((chunk) => encoder.encode(chunk));
    const eager = normalizeTaking(bytes, false);
    const taking = normalizeTaking(bytes, true);
    expect(taking.values).toEqual(eager.values);
    expect(taking.values.map((event) => event.sessionId)).toContain('sess-3');
  });

  it('took many lines of the property, not only its fallbacks', () => {
    expect(takenLines).toBeGreaterThan(100);
    expect(takenAssistantLines).toBeGreaterThan(10);
  });
});
