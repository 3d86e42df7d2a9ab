/**
 * Compiles one JSON Schema into the text of a standalone ES module exporting `validate`, with JSDoc types so that
 * `allowJs` type-checks its use and emits its declarations.
 */

import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import { copyBranchReferences } from './branch-references.ts';
import { rewriteRuntimeRequires } from './esm-runtime-imports.ts';
import { chainExclusiveConditions } from './exclusive-conditions.ts';
import { dropPatternCoveredProperties } from './pattern-covered-properties.ts';
import type { SchemaObject } from './strict-schema.ts';

/**
 * A fresh ajv per schema, so that schemas sharing an `$id` (a dialect and its strict variant) never meet.
 *
 * - `allErrors: false`: validation stops at the first failure. The CLI runs these over gigabytes of logs, most
 *   records are valid, and one precise issue per bad record is what a person acts on.
 * - `strict: true`: unknown keywords, ignored keywords and type-keyword mismatches in our schemas fail the build.
 *   Three parts are relaxed on purpose: `strictRequired` (an `if`/`then` branch requires a field its parent declares),
 *   `allowUnionTypes` (nullable fields, text-or-blocks content) and `allowMatchingProperties` (a known tool kind refines
 *   the generic `ToolCall$` pattern).
 * - No `unicode` option (deprecated): string lengths count code points through ajv's `ucs2length` helper, the import
 *   that {@link rewriteRuntimeRequires} fixes.
 * - `messages` stay on: they become the messages of `SchemaIssue`s. `verbose` stays off: no schema or data copies in
 *   errors.
 * - `inlineRefs: false`: ajv copies a referenced schema's code into every place that refers to it unless told not
 *   to, and the 72 tool kinds' `toolInvocation` and 15 `toolResult`s made most of the official validators' 1 MB, all
 *   compiled as a command starts. Called instead, a reference reports the same errors: ajv names an error by the
 *   referenced schema's path either way (`schema-references.test.ts`).
 */
export function createAjv(): Ajv2020 {
  return new Ajv2020({
    allErrors: false,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    allowMatchingProperties: true,
    inlineRefs: false,
    code: { source: true, esm: true, lines: false },
  });
}

const JSDOC_TYPES = `/**
 * @typedef {object} GeneratedValidationError
 * @property {string} instancePath
 * @property {string} schemaPath
 * @property {string} keyword
 * @property {Record<string, unknown>} params
 * @property {string} [message]
 */
/**
 * @typedef {((data: unknown) => boolean) & { errors?: GeneratedValidationError[] | null }} GeneratedValidator
 */`;

/**
 * Compiles `schema` and returns the module text.
 *
 * @param schema - A JSON Schema 2020-12 document.
 * @param source - What the module was generated from, for its header.
 * @returns ES module source that imports only ajv's runtime helpers: it runs in Node and in browsers.
 */
export function renderValidatorModule(schema: SchemaObject, source: string): string {
  const ajv = createAjv();
  // Ajv2020 tracks, in every validator, which fields each subschema evaluated, for `unevaluatedProperties` and
  // `unevaluatedItems`: where fields may match a pattern, that is an object of every known field name built anew per
  // value, which made validating a tool call several times slower than the rest of the record. A schema without
  // those keywords (an open dialect schema) never reads what is tracked, so it is compiled without tracking.
  if (!usesUnevaluated(schema)) ajv.opts.unevaluated = false;
  // A CommonJS module that is also its own `default`: `.default` is the function under every loader's interop.
  const code = ownEvaluatedFields(
    rewriteRuntimeRequires(standalone.default(ajv, ajv.compile(compiledForm(schema)))),
  );
  const exportLine = /export const validate = (\w+);export default \1;/;
  const name = exportLine.exec(code)?.[1];
  if (name === undefined) throw new Error(`${source}: unexpected standalone export form`);
  const typedExport = `\n${JSDOC_TYPES}\n/** @type {GeneratedValidator} */\nexport const validate = ${name};\n`;
  return `// Generated from ${source} by packages/core/scripts/generate-validators.ts. Do not edit.\n${code.replace(exportLine, typedExport)}`;
}

/**
 * Ajv keeps the fields a subschema evaluated in plain objects and asks `props[key]`, which finds the names of
 * `Object.prototype` (`constructor`, `toString`, `__proto__`, ...) in every one: an unknown field of such a name passed
 * `unevaluatedProperties: false`, so `--strict` and `census` never named it. The generated lookups ask for own fields.
 */
export function ownEvaluatedFields(code: string): string {
  return code.replace(/!(props\d+)\[(key\d+)\]/g, '!Object.hasOwn($1, $2)');
}

/**
 * What is compiled of `schema`: the same values valid, with the same issues, in a form ajv compiles to faster code
 * (see each transform).
 */
export function compiledForm(schema: SchemaObject): SchemaObject {
  return copyBranchReferences(chainExclusiveConditions(dropPatternCoveredProperties(schema)));
}

/** Whether `unevaluatedProperties` or `unevaluatedItems` appears anywhere in `schema`. */
function usesUnevaluated(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(usesUnevaluated);
  if (typeof schema !== 'object' || schema === null) return false;
  return Object.entries(schema).some(
    ([key, value]) => key === 'unevaluatedProperties' || key === 'unevaluatedItems' || usesUnevaluated(value),
  );
}
