/**
 * A dialect schema's `allOf` of `if`/`then` pairs, one per record type, is compiled as one `if`/`then`/`else` chain
 * (`exclusive-conditions.ts`): which pairs are chained, and that the compiled validator then accepts and rejects the
 * same values with the same issues.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { chainExclusiveConditions } from '../scripts/exclusive-conditions.ts';
import { deriveStrictSchema, type SchemaObject } from '../scripts/strict-schema.ts';
import { createAjv } from '../scripts/validator-module.ts';
import { BUILT_IN_DIALECT_REGISTRY } from '../src/dialects/registry.ts';
import { toSchemaIssues } from '../src/validation/schema-issues.ts';
import type { GeneratedValidator } from '../src/validation/validator-registry.ts';

const SCHEMAS = join(import.meta.dirname, '../../../schemas');

function readSchema(stem: string): SchemaObject {
  return JSON.parse(readFileSync(join(SCHEMAS, `${stem}.schema.json`), 'utf8')) as SchemaObject;
}

function compiled(schema: SchemaObject): GeneratedValidator {
  return createAjv().compile(schema) as GeneratedValidator;
}

function issuesBy(validator: GeneratedValidator, value: unknown) {
  return validator(value) ? [] : toSchemaIssues(validator.errors ?? []);
}

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
    for (const [variant, form] of [
      ['open', schema],
      ['strict', deriveStrictSchema(schema)],
    ] as const) {
      const asWritten = compiled(form);
      const chained = compiled(chainExclusiveConditions(form));
      test.prop([record], { numRuns: 300 })(
        `${name} (${variant}): the same values valid, with the same issues`,
        (value) => {
          expect(chained(value)).toBe(asWritten(value));
          expect(issuesBy(chained, value)).toEqual(issuesBy(asWritten, value));
        },
      );
    }
  }
});
