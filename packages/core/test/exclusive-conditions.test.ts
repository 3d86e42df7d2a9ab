/**
 * A dialect schema's `allOf` of `if`/`then` pairs, one per record type, is compiled as one `if`/`then`/`else` chain
 * (`exclusive-conditions.ts`): which pairs are chained, and that the compiled validator then accepts and rejects the
 * same values with the same issues.
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { chainExclusiveConditions } from '../scripts/exclusive-conditions.ts';
import { BUILT_IN_DIALECT_REGISTRY } from '../src/dialects/registry.ts';
import { readSchema, testSameVerdicts } from './schema-transform-support.ts';

const byType = (value: string) => ({
  if: { type: 'object', required: ['type'], properties: { type: { const: value } } },
  // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a thenable.
  then: { $ref: `#/$defs/${value}` },
});

describe('chainExclusiveConditions', () => {
  test('chains the pairs on one property with values no two share, in their order, where the first was', () => {
    const other = { required: ['id'] };
    const schema = { allOf: [other, byType('a'), byType('b'), byType('c')] };
    const before = structuredClone(schema);
    expect(chainExclusiveConditions(schema)).toEqual({
      allOf: [other, { ...byType('a'), else: { ...byType('b'), else: byType('c') } }],
    });
    expect(schema).toEqual(before);
  });

  test('leaves alone conditions that may hold together', () => {
    const withoutRequired = {
      allOf: [
        // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a thenable.
        { if: { properties: { type: { const: 'a' } } }, then: { required: ['x'] } },
        // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a thenable.
        { if: { properties: { type: { const: 'b' } } }, then: { required: ['y'] } },
      ],
    };
    expect(chainExclusiveConditions(withoutRequired)).toEqual(withoutRequired);
    const sharedValue = {
      allOf: [
        byType('a'),
        {
          if: { type: 'object', required: ['type'], properties: { type: { enum: ['a', 'b'] } } },
          // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a thenable.
          then: { required: ['y'] },
        },
      ],
    };
    expect(chainExclusiveConditions(sharedValue)).toEqual(sharedValue);
    const numbers = {
      allOf: [
        {
          if: { type: 'object', required: ['n'], properties: { n: { const: 0 } } },
          // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a thenable.
          then: { required: ['x'] },
        },
        {
          if: { type: 'object', required: ['n'], properties: { n: { const: -0 } } },
          // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a thenable.
          then: { required: ['y'] },
        },
      ],
    };
    expect(chainExclusiveConditions(numbers)).toEqual(numbers);
    const withElse = { allOf: [{ ...byType('a'), else: { required: ['z'] } }, byType('b')] };
    expect(chainExclusiveConditions(withElse)).toEqual(withElse);
  });

  test("chains each dialect's dispatch on its records' type", () => {
    const official = chainExclusiveConditions(readSchema('official')) as { allOf: unknown[] };
    expect(official.allOf).toHaveLength(1);
  });

  for (const { name, schemaStem } of BUILT_IN_DIALECT_REGISTRY) {
    const schema = readSchema(schemaStem);
    // The type values the schema dispatches on, and others: every branch, and none.
    const types = [...JSON.stringify(schema).matchAll(/"const":"([^"]+)"/g)].map(
      (match) => match[1] as string,
    );
    const record = fc.dictionary(
      fc.oneof(fc.constantFrom('type', 'subtype', 'session_id', 'message', 'method', 'params'), fc.string()),
      fc.oneof(fc.constantFrom(...types), fc.jsonValue({ maxDepth: 2 })),
      { maxKeys: 5 },
    );
    testSameVerdicts(name, schema, chainExclusiveConditions, record, 300);
  }
});
