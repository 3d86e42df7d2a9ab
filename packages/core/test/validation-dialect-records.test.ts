import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BuiltInDialectName,
  type JsonObject,
  type SchemaIssue,
  validateDialectRecord,
} from '@cursor-stream/core';
import { OWN_STREAMS, REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';

const SCHEMAS = join(import.meta.dirname, '../../../schemas');

const SESSION = 'c6b62c6f-7ead-4fd6-9922-e952131177ff';
const STARTED: JsonObject = {
  type: 'tool_call',
  subtype: 'started',
  call_id: 'call_PFAupCWibROFKbdASSdiHCoi\nfc_0d26',
  tool_call: { shellToolCall: { args: { command: 'sleep 5' } }, startedAtMs: '1790758448610' },
  session_id: SESSION,
};
const RESULT: JsonObject = {
  type: 'result',
  subtype: 'success',
  duration_ms: 5234,
  is_error: false,
  result: 'done',
};
const ASSISTANT: JsonObject = {
  type: 'assistant',
  message: { role: 'assistant', content: [{ type: 'text', text: 'I will' }] },
  session_id: SESSION,
};

function without(record: JsonObject, field: string): JsonObject {
  const { [field]: _dropped, ...rest } = record;
  return rest;
}

/** The pointer and keyword of each issue: what a mutation test asserts (messages are ajv's wording). */
function where(issues: readonly SchemaIssue[]): { pointer: string; keyword: string }[] {
  return issues.map(({ pointer, keyword }) => ({ pointer, keyword }));
}

/** Every record of the repository's recordings of the real shapes, and of the real recordings when present. */
function readRecords(): JsonObject[] {
  return [...OWN_STREAMS, ...REAL_CORPUS.ndjsonFiles()]
    .flatMap((path) => readFileSync(path, 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as JsonObject);
}

/** For each `type` the official schema dispatches on, the fields its branch requires (read off the schema). */
function requiredByType(): Map<string, string[]> {
  const schema = JSON.parse(readFileSync(join(SCHEMAS, 'official.schema.json'), 'utf8')) as {
    allOf: { if: { properties: { type: { const: string } } }; then: { $ref: string } }[];
    $defs: Record<string, { required?: string[] }>;
  };
  return new Map(
    schema.allOf.map((branch) => {
      const definition = schema.$defs[branch.then.$ref.replace('#/$defs/', '')];
      return [branch.if.properties.type.const, definition?.required ?? []];
    }),
  );
}

describe('official records that break the schema', () => {
  const cases: {
    name: string;
    dialect: BuiltInDialectName;
    record: JsonObject;
    pointer: string;
    keyword: string;
  }[] = [
    {
      name: 'a tool_call without call_id',
      dialect: 'official',
      record: without(STARTED, 'call_id'),
      pointer: '/call_id',
      keyword: 'required',
    },
    {
      name: 'a tool_call with an empty call_id',
      dialect: 'official',
      record: { ...STARTED, call_id: '' },
      pointer: '/call_id',
      keyword: 'minLength',
    },
    {
      name: 'a tool_call whose startedAtMs is a number',
      dialect: 'official',
      record: { ...STARTED, tool_call: { shellToolCall: {}, startedAtMs: 1790758448610 } },
      pointer: '/tool_call/startedAtMs',
      keyword: 'type',
    },
    {
      name: 'a shell call without its command',
      dialect: 'official',
      record: { ...STARTED, tool_call: { shellToolCall: { args: { timeout: 5 } } } },
      pointer: '/tool_call/shellToolCall/args/command',
      keyword: 'required',
    },
    {
      name: 'a tool_call naming nothing',
      dialect: 'official',
      record: { ...STARTED, tool_call: {} },
      pointer: '/tool_call',
      keyword: 'minProperties',
    },
    {
      name: 'a result with a string duration_ms',
      dialect: 'official',
      record: { ...RESULT, duration_ms: '5234' },
      pointer: '/duration_ms',
      keyword: 'type',
    },
    {
      name: 'a result without is_error',
      dialect: 'official',
      record: without(RESULT, 'is_error'),
      pointer: '/is_error',
      keyword: 'required',
    },
    {
      name: 'a result whose usage counts are strings',
      dialect: 'official',
      record: { ...RESULT, usage: { inputTokens: '12' } },
      pointer: '/usage/inputTokens',
      keyword: 'type',
    },
    {
      name: 'an assistant without message',
      dialect: 'official',
      record: without(ASSISTANT, 'message'),
      pointer: '/message',
      keyword: 'required',
    },
    {
      name: 'an assistant text block without text',
      dialect: 'official',
      record: { ...ASSISTANT, message: { content: [{ type: 'text' }] } },
      pointer: '/message/content/0/text',
      keyword: 'required',
    },
    {
      name: 'a thinking delta without text',
      dialect: 'official',
      record: { type: 'thinking', subtype: 'delta', timestamp_ms: 1 },
      pointer: '/text',
      keyword: 'required',
    },
    {
      name: 'a record with an empty type',
      dialect: 'official',
      record: { type: '' },
      pointer: '/type',
      keyword: 'minLength',
    },
    {
      name: 'a record with no type',
      dialect: 'official',
      record: { subtype: 'init' },
      pointer: '/type',
      keyword: 'required',
    },
    {
      name: 'a wrapper tool-call-started without tool_call_id',
      dialect: 'python-wrapper',
      record: { type: 'tool-call-started', tool_name: 'Shell', parameters: {} },
      pointer: '/tool_call_id',
      keyword: 'required',
    },
    {
      name: 'a wrapper assistant with neither text nor message',
      dialect: 'python-wrapper',
      record: { type: 'assistant', timestamp_ms: 1 },
      pointer: '/text',
      keyword: 'required',
    },
    {
      name: 'a wrapper tool-call-completed whose success is a string',
      dialect: 'python-wrapper',
      record: {
        type: 'tool-call-completed',
        tool_name: 'Shell',
        tool_call_id: 'c',
        result: { success: 'yes' },
      },
      pointer: '/result/success',
      keyword: 'type',
    },
    {
      name: 'an AgentEvent of an unknown EventType',
      dialect: 'python-wrapper',
      record: { type: 'assistant:final', raw_type: 'assistant', data: { type: 'assistant', text: 'x' } },
      pointer: '/type',
      keyword: 'enum',
    },
    {
      name: 'an AgentEvent without data',
      dialect: 'python-wrapper',
      record: { type: 'user', raw_type: 'user' },
      pointer: '/data',
      keyword: 'required',
    },
    {
      name: 'an envelope thinking event without content',
      dialect: 'payload-envelope',
      record: { type: 'thinking', payload: {} },
      pointer: '/payload/content',
      keyword: 'required',
    },
    {
      name: 'an envelope tool call without id',
      dialect: 'payload-envelope',
      record: {
        type: 'tool_call',
        subtype: 'started',
        payload: { toolCall: { shellToolCall: { name: 'shell' } } },
      },
      pointer: '/payload/toolCall/id',
      keyword: 'required',
    },
    {
      name: 'an envelope raw wrapper without data',
      dialect: 'payload-envelope',
      record: { type: 'raw' },
      pointer: '/data',
      keyword: 'required',
    },
    {
      name: 'an envelope error wrapper without message',
      dialect: 'payload-envelope',
      record: { type: 'error' },
      pointer: '/message',
      keyword: 'required',
    },
    {
      name: 'a stored envelope record without raw',
      dialect: 'payload-envelope',
      record: { id: '1', chatId: 'c', timestamp: 1, type: 'user', payload: { prompt: 'hi' } },
      pointer: '/raw',
      keyword: 'required',
    },
  ];

  for (const { name, dialect, record, pointer, keyword } of cases) {
    test(`${name} gives one issue at ${pointer}`, () => {
      const issues = validateDialectRecord(dialect, record);
      expect(where(issues)).toEqual([{ pointer, keyword }]);
      expect(issues[0]?.message).not.toBe('');
    });
  }

  test('the unmutated records are valid', () => {
    expect([STARTED, RESULT, ASSISTANT].map((record) => validateDialectRecord('official', record))).toEqual([
      [],
      [],
      [],
    ]);
  });

  test('an unknown type is accepted with any fields, like the format allows', () => {
    expect(
      validateDialectRecord('official', { type: 'system', subtype: 'compact_boundary', anything: [1] }),
    ).toEqual([]);
    expect(validateDialectRecord('official', { type: 'plan_update', plan: { steps: 3 } })).toEqual([]);
    expect(validateDialectRecord('python-wrapper', { type: 'tool_call', subtype: 'started' })).toEqual([]);
    expect(validateDialectRecord('payload-envelope', { type: 'status', payload: 'busy' })).toEqual([]);
  });
});

describe('strict mode', () => {
  const nested: JsonObject = {
    ...STARTED,
    tool_call: { shellToolCall: { args: { command: 'ls', sandbox: true } } },
  };

  test('flags an unknown field with its pointer, where the open schema accepts it', () => {
    const record = { ...RESULT, cost_usd: 0.12 };
    expect(validateDialectRecord('official', record)).toEqual([]);
    expect(validateDialectRecord('official', record, { strict: true })).toEqual([
      { pointer: '/cost_usd', keyword: 'unevaluatedProperties', message: 'is not a field the schema knows' },
    ]);
  });

  test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'flags an unknown field named like a member of every object: %s',
    (name) => {
      // As JSON.parse gives it: an own field, even `__proto__`.
      const record = JSON.parse(
        `{"type":"result","subtype":"success","duration_ms":1,"is_error":false,"result":"x","${name}":1}`,
      );
      expect(where(validateDialectRecord('official', record, { strict: true }))).toEqual([
        { pointer: `/${name}`, keyword: 'unevaluatedProperties' },
      ]);
      const deep = JSON.parse(JSON.stringify(nested).replace('"sandbox"', `"${name}"`));
      expect(where(validateDialectRecord('official', deep, { strict: true }))).toEqual([
        { pointer: `/tool_call/shellToolCall/args/${name}`, keyword: 'unevaluatedProperties' },
      ]);
    },
  );

  test('flags an unknown field deep in a tool call, and an unknown result arm', () => {
    expect(validateDialectRecord('official', nested)).toEqual([]);
    expect(where(validateDialectRecord('official', nested, { strict: true }))).toEqual([
      { pointer: '/tool_call/shellToolCall/args/sandbox', keyword: 'unevaluatedProperties' },
    ]);
    const armOnly = { ...STARTED, tool_call: { shellToolCall: { result: { exploded: {} } } } };
    expect(where(validateDialectRecord('official', armOnly, { strict: true }))).toEqual([
      { pointer: '/tool_call/shellToolCall/result/exploded', keyword: 'unevaluatedProperties' },
    ]);
  });

  test('accepts every field a branch names, including the fields of its subtype', () => {
    const init = {
      type: 'system',
      subtype: 'init',
      apiKeySource: 'login',
      cwd: '/p',
      model: 'Auto',
      session_id: SESSION,
    };
    expect(validateDialectRecord('official', init, { strict: true })).toEqual([]);
    expect(where(validateDialectRecord('official', { ...init, subtype: 'other' }, { strict: true }))).toEqual(
      [
        { pointer: '/apiKeySource', keyword: 'unevaluatedProperties' },
        { pointer: '/cwd', keyword: 'unevaluatedProperties' },
        { pointer: '/model', keyword: 'unevaluatedProperties' },
      ],
    );
  });

  test('applies to every dialect', () => {
    const wrapper = { type: 'tool-call-started', tool_name: 'Shell', tool_call_id: 'c', color: 'red' };
    const envelope = { type: 'user', payload: { prompt: 'hi', locale: 'en' } };
    expect(where(validateDialectRecord('python-wrapper', wrapper, { strict: true }))).toEqual([
      { pointer: '/color', keyword: 'unevaluatedProperties' },
    ]);
    expect(where(validateDialectRecord('payload-envelope', envelope, { strict: true }))).toEqual([
      { pointer: '/payload/locale', keyword: 'unevaluatedProperties' },
    ]);
  });
});

describe('mutations of records of the real shapes', () => {
  const required = requiredByType();
  const records = readRecords();
  const withRequiredFields = records.filter((record) => (required.get(String(record.type))?.length ?? 0) > 0);

  test('the corpus has records of every type whose branch requires fields', () => {
    const types = new Set(withRequiredFields.map((record) => record.type));
    expect([...required].filter(([, fields]) => fields.length > 0).map(([type]) => type)).toEqual(
      expect.arrayContaining([...types]),
    );
    expect(types.size).toBeGreaterThanOrEqual(5);
  });

  propertyTest.prop([fc.constantFrom(...withRequiredFields), fc.nat()])(
    'dropping a field its type requires gives one issue at that field',
    (record, pick) => {
      const fields = required.get(String(record.type)) ?? [];
      const field = fields[pick % fields.length] ?? '';
      expect(where(validateDialectRecord('official', without(record, field)))).toEqual([
        { pointer: `/${field}`, keyword: 'required' },
      ]);
    },
  );

  propertyTest.prop([fc.constantFrom(...records), fc.string(), fc.jsonValue()])(
    'an added unknown field passes the open schema and is flagged by strict mode at its escaped pointer',
    (record, suffix, value) => {
      const name = `x-${suffix}`;
      const mutated = { ...record, [name]: value };
      const pointer = `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      expect(validateDialectRecord('official', mutated)).toEqual([]);
      expect(where(validateDialectRecord('official', mutated, { strict: true }))).toEqual([
        { pointer, keyword: 'unevaluatedProperties' },
      ]);
    },
  );
});
