/**
 * How the generated validators treat a schema's references (`validator-module.ts`). They call them rather than copy
 * their code in (`inlineRefs: false`): a value, however it is broken, must get exactly the issues of the same schema
 * compiled with every reference inlined, ajv's default. And the definitions an `anyOf`/`oneOf` branch refers to are
 * copied into the branch (`branch-references.ts`), so that its errors carry the branch's path: what is valid must
 * not change, and the issues must be some of those the schema as written gives.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateDialectRecord } from '@cursor-stream/core';
import { parsedObjects } from '@cursor-stream/test-kit/ndjson';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { copyBranchReferences } from '../scripts/branch-references.ts';
import { deriveStrictSchema, type SchemaObject } from '../scripts/strict-schema.ts';
import { createAjv } from '../scripts/validator-module.ts';
import type { JsonObject } from '../src/dialect.ts';
import { BUILT_IN_DIALECT_REGISTRY } from '../src/dialects/registry.ts';
import type { GeneratedValidator } from '../src/validation/validator-registry.ts';
import { issuesBy, readSchema } from './schema-transform-support.ts';

const ROOT = join(import.meta.dirname, '../../..');

/** The records of a dialect's corpus folder: its lines that parse as objects. */
function corpusRecords(folder: string): JsonObject[] {
  const dir = join(ROOT, 'corpus', folder);
  const lines = readdirSync(dir)
    .filter((name) => name.endsWith('.ndjson'))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'));
  return parsedObjects(lines) as JsonObject[];
}

/** Every place in `value` a mutation may go: the paths of its objects' fields and arrays' items. */
function pathsOf(value: unknown, path: readonly (string | number)[] = []): (readonly (string | number)[])[] {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, index) => pathsOf(item, [...path, index]))];
  if (typeof value === 'object' && value !== null)
    return [path, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...path, key]))];
  return [path];
}

/** `record` with the value at `path` replaced by `replacement`, or removed when it is `undefined`. */
function mutated(record: JsonObject, path: readonly (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement ?? {};
  const copy = structuredClone(record) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (replacement === undefined) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete node[last];
  } else node[last] = replacement;
  return copy;
}

/** The canonical events the corpus's recordings give: the values the canonical validator checks. */
function corpusEvents(): JsonObject[] {
  return BUILT_IN_DIALECT_REGISTRY.flatMap(({ corpusFolder }) => {
    const dir = join(ROOT, 'corpus', corpusFolder);
    return readdirSync(dir)
      .filter((name) => name.endsWith('.events.json'))
      .flatMap((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as JsonObject[]);
  });
}

/** Each generated validator: the schema it was compiled from and the values of the corpus it checks. */
const CASES = [
  ...BUILT_IN_DIALECT_REGISTRY.flatMap(({ name, schemaStem, corpusFolder }) => {
    const schema = readSchema(schemaStem);
    const values = corpusRecords(corpusFolder);
    return [
      { name: `${name} (open)`, schema, module: schemaStem, values },
      {
        name: `${name} (strict)`,
        schema: deriveStrictSchema(schema),
        module: `${schemaStem}-strict`,
        values,
      },
    ];
  }),
  {
    name: 'canonical events',
    schema: readSchema('canonical-event'),
    module: 'canonical-event',
    values: corpusEvents(),
  },
];

/** A value of `values` broken at one place: a field or item removed, or replaced by any JSON or a string. */
function brokenValues(values: readonly JsonObject[]) {
  return fc
    .constantFrom(...values)
    .chain((value) =>
      fc
        .tuple(
          fc.constantFrom(...pathsOf(value)),
          fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }), fc.string()),
        )
        .map(([path, replacement]) => mutated(value, path, replacement)),
    );
}

function compiled(schema: SchemaObject, inlineRefs: boolean): GeneratedValidator {
  const ajv = createAjv();
  ajv.opts.inlineRefs = inlineRefs;
  return ajv.compile(schema) as GeneratedValidator;
}

describe('the generated validators', () => {
  for (const { name, schema, module, values } of CASES) {
    const generated = import(`../src/generated/${module}.js`) as Promise<{ validate: GeneratedValidator }>;
    const inlined = compiled(copyBranchReferences(schema), true);
    const asWritten = compiled(schema, true);

    test.prop([brokenValues(values)], { numRuns: 300 })(
      `${name}: a value broken anywhere gets the issues of every reference inlined`,
      async (broken) => {
        const { validate } = await generated;
        expect(issuesBy(validate, broken)).toEqual(issuesBy(inlined, broken));
      },
    );

    test.prop([brokenValues(values)], { numRuns: 300 })(
      `${name}: with branches' references copied in, the same values are valid, with some of the same issues`,
      async (broken) => {
        const { validate } = await generated;
        expect(validate(broken)).toBe(asWritten(broken));
        const written = issuesBy(asWritten, broken);
        for (const issue of issuesBy(validate, broken)) expect(written).toContainEqual(issue);
      },
    );
  }
});

describe("a branch's references copied in", () => {
  test('let the issues name what is wrong in the branch the value meant', () => {
    // An assistant message of the corpus whose text block's `text` is a number: the text block is the branch meant.
    const record = corpusRecords('cursor-sdk').find(
      (value) =>
        JSON.stringify(value).includes('"message":{"type":"assistant"') && value.type === 'sdk_message',
    );
    if (record === undefined) throw new Error('no SDK message with a text block in the corpus');
    const broken = structuredClone(record) as unknown as { message: { message: { content: unknown[] } } };
    broken.message.message.content[0] = { type: 'text', text: 5 };
    expect(validateDialectRecord('cursor-sdk', record)).toEqual([]);
    expect(validateDialectRecord('cursor-sdk', broken as unknown as JsonObject)).toEqual([
      { pointer: '/message/message/content/0/text', message: 'must be string', keyword: 'type' },
    ]);
  });

  test('leave a recursive reference a reference, and keep the keywords beside one', () => {
    const schema = {
      $defs: {
        tree: {
          type: 'object',
          properties: { children: { type: 'array', items: { anyOf: [{ $ref: '#/$defs/tree' }] } } },
        },
        leaf: { type: 'string' },
      },
      anyOf: [{ $ref: '#/$defs/tree' }, { $ref: '#/$defs/leaf', minLength: 1 }],
    };
    const copied = copyBranchReferences(schema) as { anyOf: unknown[] };
    expect(copied.anyOf[0]).toEqual({
      type: 'object',
      properties: { children: { type: 'array', items: { anyOf: [{ $ref: '#/$defs/tree' }] } } },
    });
    expect(copied.anyOf[1]).toEqual({ minLength: 1, allOf: [{ type: 'string' }] });
    expect(schema.anyOf[0]).toEqual({ $ref: '#/$defs/tree' });
  });
});
