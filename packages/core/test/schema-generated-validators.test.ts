import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { rewriteRuntimeRequires } from '../scripts/esm-runtime-imports.ts';
import { deriveStrictSchema } from '../scripts/strict-schema.ts';

const SCRIPTS = join(import.meta.dirname, '../scripts');
const GENERATED = join(import.meta.dirname, '../src/generated');

const generatedModules = readdirSync(GENERATED).filter((name) => name.endsWith('.js'));

describe('the generated validators', () => {
  test('there is an open and a strict validator per dialect, and one for canonical events', () => {
    expect(generatedModules.sort()).toEqual([
      'acp-strict.js',
      'acp.js',
      'canonical-event.js',
      'cursor-sdk-strict.js',
      'cursor-sdk.js',
      'official-strict.js',
      'official.js',
      'payload-envelope-strict.js',
      'payload-envelope.js',
      'python-wrapper-strict.js',
      'python-wrapper.js',
    ]);
  });

  test('load and run in plain Node, where a leftover require would throw', () => {
    const output = execFileSync(process.execPath, [join(SCRIPTS, 'smoke-validators.mjs')], {
      encoding: 'utf8',
    });
    expect(output).toContain(`${generatedModules.length} generated validators load and run in plain Node`);
  });

  test('import nothing but ajv’s runtime helpers, so they also run in browsers', () => {
    for (const name of generatedModules) {
      const code = readFileSync(join(GENERATED, name), 'utf8');
      const specifiers = [...code.matchAll(/^import \w+ from "([^"]+)";$/gm)].map((match) => match[1]);
      expect(specifiers.every((specifier) => specifier?.startsWith('ajv/dist/runtime/'))).toBe(true);
      expect(code).not.toMatch(/\brequire\s*\(|from\s*"node:|import\s*\(/);
    }
  });
});

describe('rewriting ajv’s runtime requires', () => {
  const standalone =
    '"use strict";export const validate = validate10;export default validate10;' +
    'const func2 = require("ajv/dist/runtime/ucs2length").default;const func4 = require("ajv/dist/runtime/equal").default;' +
    'function validate10(data){return func2(data) > 0 && func4(data, data);}';

  test('turns each require into an import whose default works under either interop', () => {
    const module = rewriteRuntimeRequires(standalone);
    expect(module).toMatch(/^import func2Module from "ajv\/dist\/runtime\/ucs2length.js";\n/);
    expect(module).toContain('import func4Module from "ajv/dist/runtime/equal.js";');
    expect(module).toContain('const func2 = func2Module.default ?? func2Module;');
    expect(module).not.toContain('require(');
    expect(module).not.toContain('"use strict"');
  });

  test('refuses code that still requires something else', () => {
    expect(() =>
      rewriteRuntimeRequires(`${standalone}const x = require("ajv-formats/dist/formats");`),
    ).toThrow(/still calls require/);
  });
});

describe('deriving the strict variant', () => {
  const schema = {
    type: 'object',
    properties: { type: { type: 'string' }, message: { $ref: '#/$defs/message' }, args: { type: 'object' } },
    allOf: [
      // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here, not a thenable.
      { if: { type: 'object', properties: { type: { const: 'a' } } }, then: { $ref: '#/$defs/branch' } },
    ],
    $defs: {
      branch: { type: 'object', properties: { extra: { type: 'string' } } },
      message: { type: 'object', properties: { text: { type: 'string' } } },
    },
  };
  const strict = deriveStrictSchema(schema) as typeof schema & Record<string, unknown>;

  test('closes the record and each object location that names fields', () => {
    expect(strict.unevaluatedProperties).toBe(false);
    expect(strict.properties.message).toEqual({
      $ref: '#/$defs/message',
      type: 'object',
      unevaluatedProperties: false,
    });
  });

  test('leaves free-form objects, in-place definitions and conditions open', () => {
    expect(strict.properties.args).toEqual({ type: 'object' });
    expect(strict.$defs.branch).toEqual(schema.$defs.branch);
    expect(strict.$defs.message).toEqual(schema.$defs.message);
    expect(strict.allOf).toEqual(schema.allOf);
  });

  test('does not change the schema it derives from', () => {
    expect(schema).not.toHaveProperty('unevaluatedProperties');
    expect(schema.properties.message).toEqual({ $ref: '#/$defs/message' });
  });
});
