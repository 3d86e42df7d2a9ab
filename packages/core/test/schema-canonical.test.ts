import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CANONICAL_EVENT_TYPES,
  type CanonicalEvent,
  KNOWN_TOOL_NAMES,
  validateCanonicalEvent,
} from '@cursor-stream/core';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';

const SCHEMA = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../schemas/canonical-event.schema.json'), 'utf8'),
) as {
  allOf: { if: { properties: { type: { const: string } } }; then: { $ref: string } }[];
  $defs: Record<string, { required: string[] }>;
};

/** The fields the schema requires of each event type. */
const REQUIRED = new Map(
  SCHEMA.allOf.map((branch) => [
    branch.if.properties.type.const,
    SCHEMA.$defs[branch.then.$ref.replace('#/$defs/', '')]?.required ?? [],
  ]),
);

const base = {
  loc: fc.record({ line: fc.integer({ min: 1, max: 2 ** 40 }), offset: fc.nat() }),
  sessionId: fc.string(),
};
const duration = fc.double({ min: 0, max: 1e9, noNaN: true });
const toolName = fc.oneof(fc.constantFrom(...KNOWN_TOOL_NAMES), fc.string({ minLength: 1 }));
const toolFields = { toolCallId: fc.string(), toolName, providerToolName: fc.string() };
const outcome = fc.oneof(
  fc.constant({ status: 'success', isError: false }),
  fc
    .record({
      status: fc.oneof(
        fc.constantFrom('failure', 'error', 'rejected', 'timeout'),
        fc.string({ minLength: 1 }),
      ),
      isError: fc.constant(true),
    })
    .filter(({ status }) => status !== 'success'),
);

/**
 * Any canonical event. Typed as the union from `events.ts`, so the compiler checks that it builds nothing else;
 * values stay inside what JSON can carry (finite numbers, JSON values for `input`, `output` and `raw`).
 */
const canonicalEvent: fc.Arbitrary<CanonicalEvent> = fc.oneof(
  fc.record(
    {
      type: fc.constant('stream-start' as const),
      ...base,
      model: fc.string(),
      cwd: fc.string(),
      apiKeySource: fc.constantFrom('env', 'flag', 'login'),
      permissionMode: fc.string(),
      requestId: fc.string(),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    { type: fc.constant('user-message' as const), ...base, text: fc.string() },
    { requiredKeys: ['type', 'text'] },
  ),
  fc.record(
    { type: fc.constant('reasoning-delta' as const), ...base, text: fc.string() },
    { requiredKeys: ['type', 'text'] },
  ),
  fc.record({ type: fc.constant('reasoning-end' as const), ...base }, { requiredKeys: ['type'] }),
  fc.record(
    { type: fc.constant('text-delta' as const), ...base, text: fc.string(), modelCallId: fc.string() },
    { requiredKeys: ['type', 'text'] },
  ),
  fc.record(
    {
      type: fc.constant('tool-call' as const),
      ...base,
      ...toolFields,
      input: fc.jsonValue(),
      modelCallId: fc.string(),
    },
    { requiredKeys: ['type', 'toolCallId', 'toolName', 'providerToolName', 'input'] },
  ),
  fc
    .tuple(
      fc.record(
        {
          type: fc.constant('tool-result' as const),
          ...base,
          ...toolFields,
          output: fc.jsonValue(),
          durationMs: duration,
        },
        { requiredKeys: ['type', 'toolCallId', 'toolName', 'providerToolName', 'output'] },
      ),
      outcome,
    )
    .map(([event, { status, isError }]) => ({ ...event, status, isError })),
  fc.record(
    {
      type: fc.constant('finish' as const),
      ...base,
      finishReason: fc.constantFrom('stop' as const, 'error' as const, 'incomplete' as const),
      isError: fc.boolean(),
      text: fc.string(),
      durationMs: duration,
      durationApiMs: duration,
      usage: fc.record(
        {
          inputTokens: fc.nat(),
          outputTokens: fc.nat(),
          cacheReadTokens: fc.nat(),
          cacheWriteTokens: fc.nat(),
        },
        { requiredKeys: [] },
      ),
      requestId: fc.string(),
      pendingToolCallIds: fc.array(fc.string()),
    },
    { requiredKeys: ['type', 'finishReason', 'isError', 'pendingToolCallIds'] },
  ),
  fc.record(
    { type: fc.constant('error' as const), ...base, message: fc.string() },
    { requiredKeys: ['type', 'message'] },
  ),
  fc.record(
    {
      type: fc.constant('unknown' as const),
      ...base,
      rawType: fc.string(),
      rawSubtype: fc.string(),
      raw: fc.jsonValue(),
    },
    { requiredKeys: ['type', 'rawType', 'raw'] },
  ),
  fc.record(
    {
      type: fc.constant('invalid-line' as const),
      ...base,
      code: fc.constantFrom(
        'invalid-json' as const,
        'not-an-object' as const,
        'unterminated-string' as const,
        'truncated' as const,
        'oversize' as const,
        'unrecognized-record' as const,
        'schema-violation' as const,
      ),
      message: fc.string(),
      excerpt: fc.string(),
    },
    { requiredKeys: ['type', 'code', 'message', 'excerpt'] },
  ),
);

function where(event: unknown): { pointer: string; keyword: string }[] {
  return validateCanonicalEvent(event).map(({ pointer, keyword }) => ({ pointer, keyword }));
}

describe('the canonical-event schema and the CanonicalEvent type', () => {
  test('the schema dispatches on exactly the canonical event types, in the union’s order', () => {
    expect([...REQUIRED.keys()]).toEqual([...CANONICAL_EVENT_TYPES]);
  });

  propertyTest.prop([canonicalEvent])('every CanonicalEvent the type allows is valid', (event) => {
    expect(validateCanonicalEvent(event)).toEqual([]);
  });

  propertyTest.prop([canonicalEvent, fc.nat()])(
    'dropping any required field gives one issue at that field',
    (event, pick) => {
      const required = REQUIRED.get(event.type) ?? [];
      const field = required[pick % required.length] ?? 'type';
      const { [field]: _dropped, ...rest } = event as unknown as Record<string, unknown>;
      expect(where(rest)).toEqual([{ pointer: `/${field}`, keyword: 'required' }]);
    },
  );

  propertyTest.prop([canonicalEvent, fc.string(), fc.jsonValue()])(
    'an unknown field is rejected at its pointer, at the top and inside loc',
    (event, suffix, value) => {
      const name = `x${suffix}`;
      const escaped = name.replaceAll('~', '~0').replaceAll('/', '~1');
      expect(where({ ...event, [name]: value })).toEqual([
        { pointer: `/${escaped}`, keyword: 'additionalProperties' },
      ]);
      const loc = { line: 1, offset: 0, [name]: value };
      expect(where({ ...event, loc })).toEqual([
        { pointer: `/loc/${escaped}`, keyword: 'additionalProperties' },
      ]);
    },
  );

  propertyTest.prop([canonicalEvent, fc.string()])(
    'a type outside the union is rejected at /type',
    (event, type) => {
      fc.pre(!(CANONICAL_EVENT_TYPES as readonly string[]).includes(type));
      expect(where({ ...event, type })).toEqual([{ pointer: '/type', keyword: 'enum' }]);
    },
  );

  test('a tool result whose isError contradicts its status is rejected at /isError', () => {
    const result = {
      type: 'tool-result',
      toolCallId: 'c',
      toolName: 'shell',
      providerToolName: 'shellToolCall',
      output: {},
    };
    expect(where({ ...result, status: 'success', isError: true })).toEqual([
      { pointer: '/isError', keyword: 'const' },
    ]);
    expect(where({ ...result, status: 'rejected', isError: false })).toEqual([
      { pointer: '/isError', keyword: 'const' },
    ]);
    expect(where({ ...result, status: 'rejected', isError: true })).toEqual([]);
  });

  test('a value that is not an object is rejected at the root', () => {
    expect(where(null)).toEqual([{ pointer: '', keyword: 'type' }]);
    expect(where(['text-delta'])).toEqual([{ pointer: '', keyword: 'type' }]);
  });
});
