/**
 * Values nested to any depth, and values no JSON text can hold, never throw: a record too deep to write is a located
 * `too-deep` invalid line and the stream goes on, through the normalizer, every stream adapter and the encoders.
 */
import {
  type CanonicalEvent,
  createNormalizer,
  DialectEncoderTransformStream,
  exceedsJsonDepth,
  type InvalidLineEvent,
  MAX_JSON_DEPTH,
  NormalizerTransformStream,
  normalizeStream,
  officialDialect,
  payloadEnvelopeDialect,
  pythonWrapperDialect,
  safeJsonStringify,
  stringifyEvent,
  TOO_DEEP_KEYWORD,
} from '@cursor-stream/core';
import { hasLazyStrings, isLazyString } from '@cursor-stream/ndjson';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, test as it } from 'vitest';
import { normalizeText } from './support.ts';

/** JSON text of arrays or objects nested `depth` levels around `1`. */
function nestedText(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A value nested `depth` levels, built without recursion. */
function nestedValue(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** Where a nested value sits: inside a record of each dialect, as a value or as JSON text in one of its strings. */
const placements: Record<string, (nested: string) => string> = {
  'official tool arguments': (nested) =>
    `{"type":"tool_call","subtype":"started","call_id":"c1","session_id":"s","tool_call":{"shellToolCall":{"args":{"command":"ls","deep":${nested}}}}}`,
  'official arguments text': (nested) =>
    `{"type":"tool_call","subtype":"started","call_id":"c1","session_id":"s","tool_call":{"function":{"name":"f","arguments":${JSON.stringify(`{"deep":${nested}}`)}}}}`,
  'python-wrapper parameters': (nested) =>
    `{"type":"tool-call-started","tool_name":"Shell","tool_call_id":"c1","parameters":{"command":"ls","deep":${nested}}}`,
  'payload-envelope payload': (nested) =>
    `{"type":"tool_call","subtype":"started","payload":{"toolCall":{"id":"c1","shellToolCall":{"args":{"deep":${nested}}}}}}`,
  'payload-envelope stored raw text': (nested) =>
    `{"chatId":"x","raw":${JSON.stringify(`{"type":"assistant","deep":${nested}}`)}}`,
  'an unknown record': (nested) => `{"type":"x","a":${nested}}`,
};

const AFTER = '{"type":"system","subtype":"init","session_id":"after","model":"m"}';

const deepCase = fc.record({
  depth: fc.oneof(fc.integer({ min: 1, max: 2 * MAX_JSON_DEPTH }), fc.integer({ min: 1, max: 100_000 })),
  kind: fc.constantFrom('array' as const, 'object' as const),
  placement: fc.constantFrom(...Object.keys(placements)),
});

interface DeepCase {
  depth: number;
  kind: 'array' | 'object';
  placement: string;
}

function inputOf({ depth, kind, placement }: DeepCase): string {
  const place = placements[placement] as (nested: string) => string;
  return `${place(nestedText(depth, kind))}\n${AFTER}\n`;
}

function checkEvents(events: readonly CanonicalEvent[], { depth, placement }: DeepCase): void {
  // Whatever came of the deep record, the record after it is read, and every event can be written.
  expect(events.some((event) => event.type === 'stream-start' && event.sessionId === 'after')).toBe(true);
  for (const event of events) expect(safeJsonStringify(event).ok).toBe(true);
  const tooDeep = events.filter((event) => event.type === 'invalid-line' && event.code === 'too-deep');
  if (depth <= MAX_JSON_DEPTH - 8) expect(tooDeep).toEqual([]);
  const atFirstLine = [expect.objectContaining({ loc: { line: 1, offset: 0 } })];
  // Nesting inside a string is too deep only once an event would hold it parsed; nesting in the record always is.
  if (depth > MAX_JSON_DEPTH && !placement.includes('text')) expect(tooDeep).toEqual(atFirstLine);
  if (tooDeep.length > 0) expect(tooDeep).toEqual(atFirstLine);
}

/** A web stream of `items`. */
function streamOf<T>(items: readonly T[]): ReadableStream<T> {
  return new ReadableStream({
    start(controller) {
      for (const item of items) controller.enqueue(item);
      controller.close();
    },
  });
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('nesting to any depth', () => {
  test.prop([deepCase], { numRuns: 40 })('the normalizer reports a record too deep and reads on', (deep) => {
    checkEvents(normalizeText(inputOf(deep)), deep);
  });

  test.prop([deepCase], { numRuns: 20 })(
    'the stream adapters and every encoder read on past a record too deep',
    async (deep) => {
      const input = inputOf(deep);
      checkEvents(await collect(normalizeStream([input])), deep);
      const transformed = await collect(
        streamOf([input]).pipeThrough(
          new NormalizerTransformStream(),
        ) as unknown as AsyncIterable<CanonicalEvent>,
      );
      checkEvents(transformed, deep);
      for (const dialect of [officialDialect, pythonWrapperDialect, payloadEnvelopeDialect]) {
        const problems: InvalidLineEvent[] = [];
        const lines = await collect(
          streamOf(transformed).pipeThrough(
            new DialectEncoderTransformStream(dialect, { onProblem: (problem) => problems.push(problem) }),
          ) as unknown as AsyncIterable<string>,
        );
        expect(lines.join('')).toContain('"after"');
        expect(problems).toEqual([]);
      }
    },
  );

  it('events built by a caller too deep to write are problems of the encoder stream, and it goes on', async () => {
    const deep: CanonicalEvent = {
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'shell',
      providerToolName: 'shell',
      input: nestedValue(100_000, 'object'),
      loc: { line: 3, offset: 40 },
    };
    const after: CanonicalEvent = { type: 'user-message', text: 'after' };
    const problems: InvalidLineEvent[] = [];
    const lines = await collect(
      streamOf([deep, after]).pipeThrough(
        new DialectEncoderTransformStream(officialDialect, {
          onProblem: (problem) => problems.push(problem),
        }),
      ) as unknown as AsyncIterable<string>,
    );
    expect(lines.join('')).toContain('"after"');
    expect(problems).toEqual([
      expect.objectContaining({ type: 'invalid-line', code: 'too-deep', loc: { line: 3, offset: 40 } }),
    ]);
    expect(JSON.parse(stringifyEvent(deep))).toMatchObject({
      code: 'too-deep',
      loc: { line: 3, offset: 40 },
    });
  });
});

/** Records of each dialect with a value nested inside, where their schemas name the fields and where they do not. */
const validatedRecords: Record<string, (nested: unknown) => Record<string, unknown>> = {
  'official unknown record': (nested) => ({ type: 'x', a: nested }),
  'official unknown field': (nested) => ({
    type: 'assistant',
    session_id: 's',
    message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
    a: nested,
  }),
  'official tool arguments': (nested) => ({
    type: 'tool_call',
    subtype: 'started',
    call_id: 'c1',
    session_id: 's',
    tool_call: { shellToolCall: { args: { command: 'ls', deep: nested } } },
  }),
  'python-wrapper parameters': (nested) => ({
    type: 'tool-call-started',
    tool_name: 'Shell',
    tool_call_id: 'c1',
    parameters: { command: 'ls', deep: nested },
    extra: nested,
  }),
  'payload-envelope payload': (nested) => ({
    type: 'tool_call',
    subtype: 'started',
    payload: { toolCall: { id: 'c1', shellToolCall: { args: { deep: nested } } }, extra: nested },
  }),
};

describe('schema validation at any depth', () => {
  const dialects = [officialDialect, pythonWrapperDialect, payloadEnvelopeDialect];
  test.prop(
    [
      fc.record({
        depth: fc.oneof(
          fc.integer({ min: 1, max: 2 * MAX_JSON_DEPTH }),
          fc.integer({ min: 1, max: 100_000 }),
        ),
        kind: fc.constantFrom('array' as const, 'object' as const),
        record: fc.constantFrom(...Object.keys(validatedRecords)),
        dialect: fc.integer({ min: 0, max: dialects.length - 1 }),
        strict: fc.boolean(),
      }),
    ],
    { numRuns: 60 },
  )('never throws; strictly, a record past the depth limit is one too-deep issue', (deep) => {
    const build = validatedRecords[deep.record] as (nested: unknown) => Record<string, unknown>;
    const record = build(nestedValue(deep.depth, deep.kind));
    const dialect = dialects[deep.dialect] ?? officialDialect;
    const issues = dialect.validate(record, { strict: deep.strict });
    const tooDeep = issues.filter((issue) => issue.keyword === TOO_DEEP_KEYWORD);
    if (deep.strict && exceedsJsonDepth(record, MAX_JSON_DEPTH)) {
      expect(issues).toEqual([
        {
          pointer: '',
          keyword: TOO_DEEP_KEYWORD,
          message: `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
        },
      ]);
    } else expect(tooDeep).toEqual([]);
  });

  test.prop(
    [
      fc.record({
        depth: fc.integer({ min: 1, max: 2 * MAX_JSON_DEPTH }),
        kind: fc.constantFrom('array' as const, 'object' as const),
        record: fc.constantFrom(...Object.keys(validatedRecords)),
        dialect: fc.integer({ min: 0, max: dialects.length - 1 }),
      }),
    ],
    { numRuns: 60 },
  )("strictly, the same issues when told the length of the record's text", (deep) => {
    const build = validatedRecords[deep.record] as (nested: unknown) => Record<string, unknown>;
    const record = build(nestedValue(deep.depth, deep.kind));
    const dialect = dialects[deep.dialect] ?? officialDialect;
    const textLength = JSON.stringify(record).length;
    expect(dialect.validate(record, { strict: true, textLength })).toEqual(
      dialect.validate(record, { strict: true }),
    );
  });

  it('strictly lists the unknown fields of a record just within the limit', () => {
    const record = { type: 'x', a: nestedValue(MAX_JSON_DEPTH - 1, 'array') };
    expect(exceedsJsonDepth(record, MAX_JSON_DEPTH)).toBe(false);
    const issues = officialDialect.validate(record, { strict: true });
    expect(issues.map((issue) => issue.keyword)).not.toContain(TOO_DEEP_KEYWORD);
    expect(issues.length).toBeGreaterThan(0);
  });
});

describe('exceedsJsonDepth', () => {
  /** The nesting of a JSON value, by definition: a scalar is 0, a container one more than its deepest item. */
  function depthOf(value: unknown): number {
    if (typeof value !== 'object' || value === null) return 0;
    return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  }

  test.prop([fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 })])(
    'says whether a value nests deeper than the limit, for any value and limit',
    (value, maxDepth) => {
      expect(exceedsJsonDepth(value, maxDepth)).toBe(depthOf(value) > maxDepth);
    },
  );

  it('walks own fields only, and passes over a throwing getter as not too deep', () => {
    const inherited = Object.create({ deep: [[[]]] }) as object;
    expect(exceedsJsonDepth({ a: inherited }, 2)).toBe(false);
    const throwing = {
      a: [[]],
      get b(): unknown {
        throw new Error('no');
      },
    };
    expect(exceedsJsonDepth(throwing, 1)).toBe(false);
  });
});

describe('safeJsonStringify', () => {
  test.prop([fc.jsonValue()])('writes what JSON.stringify writes for any JSON value', (value) => {
    expect(safeJsonStringify(value)).toEqual({ ok: true, text: JSON.stringify(value) });
  });

  it('gives the same verdict on depth wherever it is called from', () => {
    const value = nestedValue(1500, 'array');
    const fromDeepStack = (levels: number): unknown =>
      levels === 0 ? safeJsonStringify(value, undefined, 1000) : fromDeepStack(levels - 1);
    expect(safeJsonStringify(value, undefined, 1000)).toMatchObject({ ok: false, code: 'too-deep' });
    expect(fromDeepStack(2000)).toMatchObject({ ok: false, code: 'too-deep' });
    expect(safeJsonStringify(nestedValue(100_000, 'object'))).toMatchObject({ ok: false, code: 'too-deep' });
    expect(exceedsJsonDepth(nestedValue(100_000, 'array'), 99_999)).toBe(true);
    expect(exceedsJsonDepth(nestedValue(100_000, 'array'), 100_000)).toBe(false);
  });

  it('a cycle, a BigInt and a throwing getter are invalid-json, never a throw', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const getter = {
      get boom(): unknown {
        throw new Error('no');
      },
    };
    for (const value of [cycle, { n: 1n }, getter]) {
      expect(safeJsonStringify(value)).toMatchObject({ ok: false, code: 'invalid-json' });
    }
  });
});

describe('pushRecord', () => {
  it('a value with a throwing getter, a cycle or too deep a nesting is an invalid line, and later pushes work', () => {
    const normalizer = createNormalizer();
    const throwingType = {
      get type(): string {
        throw new Error('no type');
      },
    };
    const throwingField = {
      type: 'assistant',
      get message(): unknown {
        throw new Error('no message');
      },
    };
    const cycle: Record<string, unknown> = { type: 'x' };
    cycle.self = cycle;
    const events: CanonicalEvent[] = [];
    for (const value of [
      throwingType,
      throwingField,
      cycle,
      { type: 'x', deep: nestedValue(100_000, 'array') },
    ]) {
      expect(() => events.push(...normalizer.pushRecord(value))).not.toThrow();
    }
    events.push(...normalizer.pushRecord(JSON.parse(AFTER)), ...normalizer.end());
    expect(
      events.slice(0, 4).map((event) => [event.type, (event as InvalidLineEvent).code, event.loc?.line]),
    ).toEqual([
      ['invalid-line', 'invalid-json', 1],
      ['invalid-line', 'invalid-json', 2],
      ['invalid-line', 'invalid-json', 3],
      ['invalid-line', 'too-deep', 4],
    ]);
    expect(events[4]).toMatchObject({ type: 'stream-start', sessionId: 'after', loc: { line: 5 } });
    for (const event of events) expect(() => JSON.stringify(event)).not.toThrow();
  });
});

describe('long tool outputs', () => {
  it('are still undecoded after the normalizer checked their record for depth, and read whole through the event', () => {
    const content = `${'line "quoted" é\n'.repeat(4096)}`;
    const record = {
      type: 'tool_call',
      subtype: 'completed',
      call_id: 'c1',
      tool_call: { readToolCall: { args: { path: 'a.txt' }, result: { success: { content } } } },
    };
    const bytes = new TextEncoder().encode(`${JSON.stringify(record)}\n`);
    const normalizer = createNormalizer();
    // Held over two chunks, the line is parsed with its long string left as bytes.
    const events = [...normalizer.feed(bytes.subarray(0, 7)), ...normalizer.feed(bytes.subarray(7))];
    const result = events.find((event) => event.type === 'tool-result');
    const output = result?.type === 'tool-result' ? (result.output as Record<string, unknown>) : {};
    expect(hasLazyStrings(output)).toBe(true);
    expect(exceedsJsonDepth(result, MAX_JSON_DEPTH)).toBe(false);
    expect(isLazyString(output, 'content')).toBe(true);
    expect(output.content).toBe(content);
    expect(JSON.parse(stringifyEvent(result as CanonicalEvent))).toMatchObject({ output: { content } });
  });
});
