/** What the tests of the compiled schemas (`scripts/`) share: the schemas, compiling them, and the check of a transform. */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { deriveStrictSchema, type SchemaObject } from '../scripts/strict-schema.ts';
import { createAjv } from '../scripts/validator-module.ts';
import { toSchemaIssues } from '../src/validation/schema-issues.ts';
import type { GeneratedValidator } from '../src/validation/validator-registry.ts';

const SCHEMAS = join(import.meta.dirname, '../../../schemas');

/** `schemas/<stem>.schema.json`, as written. */
export function readSchema(stem: string): SchemaObject {
  return JSON.parse(readFileSync(join(SCHEMAS, `${stem}.schema.json`), 'utf8')) as SchemaObject;
}

/** `schema` compiled by the generator's ajv, with no transform. */
export function compiled(schema: SchemaObject): GeneratedValidator {
  return createAjv().compile(schema) as GeneratedValidator;
}

/** The issues `validator` finds in `value`, as validation reports them. */
export function issuesBy(validator: GeneratedValidator, value: unknown) {
  return validator(value) ? [] : toSchemaIssues(validator.errors ?? []);
}

/**
 * Tests that `transform` leaves what `schema` (open, and its strict variant) accepts and the issues it finds as they
 * are, on the values `values` draws.
 */
export function testSameVerdicts(
  name: string,
  schema: SchemaObject,
  transform: (schema: SchemaObject) => SchemaObject,
  values: fc.Arbitrary<unknown>,
  numRuns: number,
): void {
  for (const [variant, form] of [
    ['open', schema],
    ['strict', deriveStrictSchema(schema)],
  ] as const) {
    const asWritten = compiled(form);
    const transformed = compiled(transform(form));
    test.prop([values], { numRuns })(
      `${name} (${variant}): the same values valid, with the same issues`,
      (value) => {
        expect(transformed(value)).toBe(asWritten(value));
        expect(issuesBy(transformed, value)).toEqual(issuesBy(asWritten, value));
      },
    );
  }
}
