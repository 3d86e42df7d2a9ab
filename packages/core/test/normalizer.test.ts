import {
  createNormalizer,
  type Dialect,
  normalizeStream,
  officialDialect,
  reduceSessions,
  validateDialectRecord,
} from '@cursor-stream/core';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { normalizeText, ofType, withoutLoc } from './support.ts';

const INIT = { type: 'system', subtype: 'init', session_id: 's1', model: 'Auto', cwd: '/w' };
const THINKING = { type: 'thinking', subtype: 'delta', text: 'hm', session_id: 's1' };
const OFFICIAL_TOOL = {
  type: 'tool_call',
  subtype: 'started',
  call_id: 'c1',
  tool_call: { readToolCall: { args: { path: 'a' } } },
  session_id: 's1',
};
const WRAPPER_TOOL = {
  type: 'tool-call-started',
  tool_name: 'Shell',
  tool_call_id: 'w1',
  parameters: { command: 'ls' },
};

describe('detection', () => {
  test('shared records before detection are emitted at once and leave the dialect undetected', () => {
    const normalizer = createNormalizer();
    const events = normalizer.feed(ndjson([INIT, THINKING]));
    expect(events.map((event) => event.type)).toEqual(['stream-start', 'reasoning-delta']);
    expect(normalizer.dialect).toBeUndefined();
    normalizer.feed(ndjson([OFFICIAL_TOOL]));
    expect(normalizer.dialect).toBe('official');
  });

  test('a record only another dialect explains is still normalized after detection', () => {
    const events = normalizeText(ndjson([INIT, OFFICIAL_TOOL, WRAPPER_TOOL]));
    const calls = ofType(events, 'tool-call');
    expect(calls.map((call) => [call.toolCallId, call.toolName, call.providerToolName])).toEqual([
      ['c1', 'read', 'readToolCall'],
      ['w1', 'shell', 'Shell'],
    ]);
  });

  test('a stream of shared records only is named, once it ends, by the dialect that explained them', () => {
    const normalizer = createNormalizer();
    normalizer.feed(ndjson([INIT, THINKING]));
    expect(normalizer.dialect).toBeUndefined();
    normalizer.end();
    expect(normalizer.dialect).toBe('official');
  });

  test('the first distinctive record decides, whatever came before', () => {
    const normalizer = createNormalizer();
    normalizer.feed(ndjson([INIT, THINKING, WRAPPER_TOOL, OFFICIAL_TOOL]));
    expect(normalizer.dialect).toBe('python-wrapper');
  });

  test('a forced dialect is reported from the start', () => {
    const normalizer = createNormalizer({ dialect: 'payload-envelope' });
    expect(normalizer.dialect).toBe('payload-envelope');
    expect(createNormalizer({ dialect: 'auto' }).dialect).toBeUndefined();
  });

  test('an unknown dialect name is a misuse and throws', () => {
    expect(() => createNormalizer({ dialect: 'nope' })).toThrow(/Unknown dialect "nope"/);
  });

  test('onRecord sees each record with the dialect that normalized it', () => {
    const seen: [number, string | undefined][] = [];
    normalizeText(ndjson([INIT, { no: 'type' }, WRAPPER_TOOL]), {
      onRecord: (record, dialect) => seen.push([record.line, dialect?.name]),
    });
    expect(seen).toEqual([
      [1, 'official'],
      [2, undefined],
      [3, 'python-wrapper'],
    ]);
  });
});

describe('records no dialect models', () => {
  test('a record without a string type is an unrecognized-record invalid-line', () => {
    const [event] = normalizeText('{"kind":"x"}\n');
    expect(event).toMatchObject({
      type: 'invalid-line',
      code: 'unrecognized-record',
      excerpt: '{"kind":"x"}',
    });
    expect(event?.loc).toEqual({ line: 1, offset: 0 });
  });

  test('well-formed records of unmodelled types are unknown events, never errors', () => {
    const records = [
      { type: 'system', subtype: 'future_subtype', session_id: 's1' },
      { type: 'connection', subtype: 'lost' },
      { type: 'some_future_event', x: 1 },
    ];
    const events = normalizeText(ndjson(records));
    expect(ofType(events, 'invalid-line')).toEqual([]);
    const unknown = ofType(events, 'unknown');
    expect(unknown.map((event) => [event.rawType, event.rawSubtype])).toEqual([
      ['system', 'future_subtype'],
      ['connection', 'lost'],
      ['some_future_event', undefined],
    ]);
    expect(unknown[0]?.sessionId).toBe('s1');
    expect(unknown[2]?.raw).toEqual(records[2]);
  });

  test('tokenizer problems become invalid-line events with the tokenizer code, message and excerpt', () => {
    const events = normalizeText('Press any key to sign in...\n[1,2]\n{"type":"user"');
    const invalid = ofType(events, 'invalid-line');
    expect(invalid.map((event) => [event.code, event.loc?.line])).toEqual([
      ['non-json-output', 1],
      ['not-an-object', 2],
      ['truncated', 3],
    ]);
    expect(invalid[0]?.excerpt).toBe('Press any key to sign in...');
    expect(invalid[0]?.message).toBe('Press any key to sign in...');
    expect(invalid.every((event) => event.message.length > 0)).toBe(true);
  });
});

describe('sessions', () => {
  test('input that ends without a result gets one incomplete finish listing the open calls', () => {
    const events = normalizeText(ndjson([INIT, OFFICIAL_TOOL]));
    const finishes = ofType(events, 'finish');
    expect(finishes).toEqual([
      {
        type: 'finish',
        finishReason: 'incomplete',
        isError: false,
        pendingToolCallIds: ['c1'],
        sessionId: 's1',
      },
    ]);
  });

  test('sessions back to back each get exactly one finish', () => {
    const result = { type: 'result', subtype: 'success', result: 'ok', is_error: false, session_id: 's1' };
    const second = { ...INIT, session_id: 's2' };
    const events = normalizeText(
      ndjson([INIT, THINKING, second, THINKING, result, { ...INIT, session_id: 's3' }]),
    );
    const finishes = ofType(events, 'finish');
    expect(finishes.map((finish) => [finish.finishReason, finish.sessionId])).toEqual([
      ['incomplete', 's1'],
      ['stop', 's1'],
      ['incomplete', 's3'],
    ]);
    // The synthesized finish closes the first session before the second one's start.
    expect(events.findIndex((event) => event.type === 'finish')).toBe(2);
  });

  test('noise after a result opens no new session', () => {
    const result = { type: 'result', subtype: 'success', result: '', is_error: false };
    const events = normalizeText(`${ndjson([INIT, result])}garbage\n{"type":"connection"}\n`);
    expect(ofType(events, 'finish')).toHaveLength(1);
  });

  test('a failed result gives an error event and an error finish with usage in camelCase', () => {
    const result = {
      type: 'result',
      subtype: 'error',
      is_error: true,
      errors: ['Something broke'],
      result: 'extra detail',
      usage: { input_tokens: 3, output_tokens: 4 },
    };
    const events = normalizeText(ndjson([INIT, result]));
    expect(events.slice(-2).map((event) => event.type)).toEqual(['error', 'finish']);
    expect(ofType(events, 'error')[0]?.message).toBe('Something broke');
    expect(ofType(events, 'finish')[0]).toMatchObject({
      finishReason: 'error',
      isError: true,
      text: 'extra detail',
      usage: { inputTokens: 3, outputTokens: 4 },
    });
  });
});

describe('other inputs', () => {
  test('pushRecord takes parsed records, and non-objects become not-an-object', () => {
    const normalizer = createNormalizer();
    expect(normalizer.pushRecord(INIT)[0]).toMatchObject({
      type: 'stream-start',
      loc: { line: 1, offset: 0 },
    });
    expect(normalizer.pushRecord(42, { line: 7, offset: 99 })[0]).toMatchObject({
      type: 'invalid-line',
      code: 'not-an-object',
      excerpt: '42',
      loc: { line: 7, offset: 99 },
    });
    expect(normalizer.end().map((event) => event.type)).toEqual(['finish']);
  });

  test('normalizeStream reads any chunk source and gives what feed gives', async () => {
    const text = ndjson([INIT, THINKING, OFFICIAL_TOOL]);
    const events = [];
    for await (const event of normalizeStream([
      text.slice(0, 10),
      new TextEncoder().encode(text.slice(10)),
    ])) {
      events.push(event);
    }
    expect(events).toEqual(normalizeText(text));
  });

  test('a dialect that throws costs one invalid-line, not the stream', () => {
    const broken: Dialect = {
      ...officialDialect,
      name: 'broken',
      normalize: () => {
        throw new Error('boom');
      },
    } as Dialect;
    const events = normalizeText(ndjson([INIT, INIT]), { dialects: [broken] });
    expect(ofType(events, 'invalid-line').map((event) => event.message)).toEqual([
      expect.stringContaining('boom'),
      expect.stringContaining('boom'),
    ]);
  });

  test.each([
    ['null in the list', [null]],
    ['a string', 'oops'],
    ['an event without a type', [{ text: 'x' }]],
    ['nothing', undefined],
  ])('a dialect that gives %s costs one invalid-line, not the stream', (_, given) => {
    const broken = { ...officialDialect, name: 'broken', normalize: () => given } as unknown as Dialect;
    const events = normalizeText(ndjson([INIT, INIT]), { dialects: [broken] });
    expect(events.filter((event) => event.type !== 'finish').map((event) => event.type)).toEqual([
      'invalid-line',
      'invalid-line',
    ]);
    expect(ofType(events, 'invalid-line')[0]?.message).toContain('something other than a list of events');
  });
});

const anyRecord = fc.oneof(
  fc.object(),
  fc.record({
    type: fc.constantFrom('system', 'user', 'assistant', 'thinking', 'tool_call', 'result', 'raw', 'error'),
    subtype: fc.constantFrom('init', 'delta', 'completed', 'started', 'success', 'error', undefined),
    payload: fc.oneof(fc.constant(undefined), fc.object(), fc.record({ toolCall: fc.object() })),
    message: fc.oneof(fc.constant(undefined), fc.anything()),
    tool_call: fc.oneof(fc.constant(undefined), fc.object(), fc.record({ shellToolCall: fc.object() })),
    call_id: fc.oneof(fc.string(), fc.constant(undefined)),
    data: fc.oneof(fc.string(), fc.object(), fc.constant(undefined)),
    raw_type: fc.oneof(fc.string(), fc.constant(undefined)),
    raw: fc.oneof(fc.json(), fc.constant(undefined)),
    chatId: fc.oneof(fc.string(), fc.constant(undefined)),
  }),
);

/** A record as the WebSocket app's client stores it: the message whole as `payload`, its JSON text as `raw`. */
function stored(index: number, message: Record<string, unknown>): Record<string, unknown> {
  const { type, subtype } = message;
  return {
    id: `m-${index}`,
    chatId: 'chat-42',
    timestamp: 1761800000000 + index,
    type,
    subtype,
    payload: message,
    raw: JSON.stringify(message),
  };
}

describe('the WebSocket app’s stored client records', () => {
  const messages = [
    {
      type: 'system',
      subtype: 'init',
      session_id: 'chat-42',
      model: 'Auto',
      cwd: '/w',
      apiKeySource: 'login',
      permissionMode: 'default',
    },
    { type: 'thinking', subtype: 'delta', text: 'Plan', session_id: 'chat-42', timestamp_ms: 1761800000002 },
    { type: 'thinking', subtype: 'completed', session_id: 'chat-42', timestamp_ms: 1761800000003 },
    { type: 'error', message: "Error: Authentication required. Please run 'agent login' first.\n" },
    { type: 'raw', data: 'Press any key to sign in...' },
    { type: 'result', subtype: 'error', exitCode: 1 },
  ];
  const records = messages.map((message, index) => stored(index, message));

  test('the app’s own error and raw messages, stored, say why the run failed, as they do on the wire', () => {
    const events = normalizeText(ndjson(records));
    expect(ofType(events, 'unknown')).toEqual([]);
    expect(ofType(events, 'invalid-line').map((event) => event.message)).toEqual([
      'Press any key to sign in...',
    ]);
    const [session] = reduceSessions(events);
    expect(session?.status).toBe('error');
    expect(session?.failure?.code).toBe('auth');
  });

  test('a stored thinking record is valid, with its text or none', () => {
    for (const record of records.slice(1, 3))
      expect(validateDialectRecord('payload-envelope', record)).toEqual([]);
  });
});

describe('the Python wrapper’s serialized AgentEvents, as its parser writes them', () => {
  const event = (fields: Record<string, unknown>) => ({
    subtype: null,
    text: null,
    session_id: null,
    timestamp_ms: null,
    ...fields,
  });

  test('a line without a type (named unknown) is valid and keeps what it holds', () => {
    const record = event({
      type: 'unknown',
      raw_type: 'unknown',
      data: { level: 'info', msg: 'mcp server ready' },
    });
    expect(validateDialectRecord('python-wrapper', record)).toEqual([]);
    const [unknown] = ofType(normalizeText(ndjson([record]), { dialect: 'python-wrapper' }), 'unknown');
    expect(unknown?.raw).toMatchObject({ level: 'info', msg: 'mcp server ready' });
  });

  test('a text the wrapper took from an object result is valid', () => {
    const data = { type: 'interaction_query', subtype: 'response', result: { approved: true } };
    const record = event({
      type: 'unknown',
      raw_type: 'interaction_query',
      subtype: 'response',
      text: data.result,
      data,
    });
    expect(validateDialectRecord('python-wrapper', record)).toEqual([]);
  });
});

describe('robustness', () => {
  test.prop([
    fc.array(
      fc.oneof(
        anyRecord.map((record) => JSON.stringify(record)),
        fc.string(),
      ),
      { maxLength: 20 },
    ),
  ])(
    'arbitrary records and garbage never make the normalizer throw, and every record event is located',
    (lines) => {
      const events = normalizeText(lines.join('\n'));
      for (const event of events) {
        const synthesized = event.type === 'finish' && event.finishReason === 'incomplete';
        if (!synthesized) expect(event.loc).toBeDefined();
      }
      expect(ofType(events, 'finish').length).toBeLessThanOrEqual(lines.length + 1);
    },
  );

  test.prop([fc.array(fc.anything(), { maxLength: 10 })])('pushRecord of anything never throws', (values) => {
    const normalizer = createNormalizer();
    for (const value of values) normalizer.pushRecord(value);
    normalizer.end();
  });

  test('the same input gives the same events, loc aside, with or without a trailing newline', () => {
    const text = ndjson([INIT, OFFICIAL_TOOL]);
    expect(withoutLoc(normalizeText(text.trimEnd()))).toEqual(withoutLoc(normalizeText(text)));
  });
});
