/**
 * The generated validators call a schema's references rather than copy them in (`inlineRefs: false`, see
 * `validator-module.ts`): a record, however it is broken, must get exactly the issues of the same schema compiled
 * with every reference inlined, ajv's default.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { deriveStrictSchema, type SchemaObject } from '../scripts/strict-schema.ts';
import { createAjv } from '../scripts/validator-module.ts';
import type { JsonObject } from '../src/dialect.ts';
import { BUILT_IN_DIALECT_REGISTRY } from '../src/dialects/registry.ts';
import { toSchemaIssues } from '../src/validation/schema-issues.ts';
import type { GeneratedValidator } from '../src/validation/validator-registry.ts';

const ROOT = join(import.meta.dirname, '../../..');

function readSchema(stem: string): SchemaObject {
  return JSON.parse(readFileSync(join(ROOT, 'schemas', `${stem}.schema.json`), 'utf8')) as SchemaObject;
}

/** The records of a dialect's corpus folder: its lines that parse as objects. */
function corpusRecords(folder: string): JsonObject[] {
  const dir = join(ROOT, 'corpus', folder);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ndjson'))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .flatMap((line) => {
      try {
        const value: unknown = JSON.parse(line);
        return typeof value === 'object' && value !== null && !Array.isArray(value)
          ? [value as JsonObject]
          : [];
      } catch {
        return [];
      }
    });
}

function issuesBy(validator: GeneratedValidator, record: unknown) {
  return validator(record) ? [] : toSchemaIssues(validator.errors ?? []);
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

describe('validators calling their references', () => {
  for (const { name, schema, module, values } of CASES) {
    const inlined = createAjv();
    inlined.opts.inlineRefs = true;
    const reference = inlined.compile(schema) as GeneratedValidator;
    const generated = import(`../src/generated/${module}.js`) as Promise<{ validate: GeneratedValidator }>;
    const mutation = fc
      .constantFrom(...values)
      .chain((value) =>
        fc.tuple(
          fc.constant(value),
          fc.constantFrom(...pathsOf(value)),
          fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }), fc.string()),
        ),
      );
    test.prop([mutation], { numRuns: 300 })(
      `${name}: a value broken anywhere gets the issues of every reference inlined`,
      async ([value, path, replacement]) => {
        const { validate } = await generated;
        const broken = mutated(value, path, replacement);
        expect(issuesBy(validate, broken)).toEqual(issuesBy(reference, broken));
      },
    );
  }
});
