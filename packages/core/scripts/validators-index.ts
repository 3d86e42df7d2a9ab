/**
 * Writes the module that gathers the generated validators as data, one import per file, from the dialect registry:
 * a static import per validator keeps them out of every module that does not import this one.
 */

import type { BuiltInDialectEntry } from '../src/dialects/registry.ts';

/**
 * The text of `src/generated/schema-validators.ts`.
 *
 * @param dialects - The registry's entries, each with its `<schemaStem>.js` and `<schemaStem>-strict.js` generated.
 * @param canonicalStem - The stem of the canonical events' validator.
 */
export function renderValidatorsIndex(
  dialects: readonly BuiltInDialectEntry[],
  canonicalStem: string,
): string {
  const imports = dialects.flatMap(({ schemaStem }, index) => [
    `import { validate as open${index} } from './${schemaStem}.js';`,
    `import { validate as strict${index} } from './${schemaStem}-strict.js';`,
  ]);
  const entries = dialects.map(
    ({ name }, index) => `    ${JSON.stringify(name)}: { open: open${index}, strict: strict${index} },`,
  );
  return [
    '// Generated from packages/core/src/dialects/registry.ts by packages/core/scripts/generate-validators.ts. Do not edit.',
    '/**',
    ' * The standalone validators generated from `schemas/`, gathered as data. They are about 870 KB of code, so only the',
    ' * modules that need them import this one: the full entry installs them eagerly, and `loadSchemaValidators` loads',
    ' * them on demand. Typed as `SchemaValidators`, whose dialects are keyed by the registry: a dialect missing here, or',
    ' * one the registry does not have, fails to compile.',
    ' */',
    '',
    "import type { SchemaValidators } from '../validation/validator-registry.ts';",
    `import { validate as canonical } from './${canonicalStem}.js';`,
    ...imports,
    '',
    "/** Every generated validator: each built-in dialect's schema as written (open) and strict, and the canonical one. */",
    'export const GENERATED_VALIDATORS: SchemaValidators = {',
    '  dialects: {',
    ...entries,
    '  },',
    '  canonical,',
    '};',
    '',
  ].join('\n');
}
