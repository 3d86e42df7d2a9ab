/**
 * Writes the modules that gather the generated validators as data, one import per file, from the dialect registry: a
 * static import per validator keeps them out of every module that does not import these. The open and the strict
 * validators are gathered apart, as each is over a third of the code and a command usually needs one kind.
 */

import type { BuiltInDialectEntry } from '../src/dialects/registry.ts';

/** The modules, by file name under `src/generated/`. */
export type ValidatorsIndexFile = 'open-validators.ts' | 'strict-validators.ts' | 'schema-validators.ts';

const BANNER =
  '// Generated from packages/core/src/dialects/registry.ts by packages/core/scripts/generate-validators.ts. Do not edit.';

/** The text of one kind's module: each dialect's `<schemaStem>.js` or `<schemaStem>-strict.js`. */
function renderKind(dialects: readonly BuiltInDialectEntry[], kind: 'open' | 'strict'): string {
  const suffix = kind === 'open' ? '' : '-strict';
  const name = `${kind.toUpperCase()}_VALIDATORS`;
  return [
    BANNER,
    '/**',
    ` * The ${kind} validators of the built-in dialects (${kind === 'open' ? 'their schemas as written' : 'unknown fields rejected'}), gathered as data. Typed as`,
    ' * `DialectValidators`, keyed by the registry: a dialect missing here, or one the registry does not have, fails to',
    ' * compile.',
    ' */',
    '',
    "import type { DialectValidators } from '../validation/validator-registry.ts';",
    ...dialects.map(
      ({ schemaStem }, index) =>
        `import { validate as validate${index} } from './${schemaStem}${suffix}.js';`,
    ),
    '',
    `/** Each built-in dialect's ${kind} validator. */`,
    `export const ${name}: DialectValidators = {`,
    ...dialects.map(({ name: dialect }, index) => `  ${JSON.stringify(dialect)}: validate${index},`),
    '};',
    '',
  ].join('\n');
}

/**
 * The text of the modules of `src/generated/` that gather the validators.
 *
 * @param dialects - The registry's entries, each with its `<schemaStem>.js` and `<schemaStem>-strict.js` generated.
 * @param canonicalStem - The stem of the canonical events' validator.
 */
export function renderValidatorsIndex(
  dialects: readonly BuiltInDialectEntry[],
  canonicalStem: string,
): Record<ValidatorsIndexFile, string> {
  const all = [
    BANNER,
    '/**',
    ' * Every generated validator, for the full entry, which installs them eagerly; `loadSchemaValidators` loads each',
    ' * kind on demand instead.',
    ' */',
    '',
    "import type { SchemaValidators } from '../validation/validator-registry.ts';",
    `import { validate as canonical } from './${canonicalStem}.js';`,
    "import { OPEN_VALIDATORS as open } from './open-validators.ts';",
    "import { STRICT_VALIDATORS as strict } from './strict-validators.ts';",
    '',
    "/** Every generated validator: each built-in dialect's schema as written (open) and strict, and the canonical one. */",
    'export const GENERATED_VALIDATORS: SchemaValidators = { open, strict, canonical };',
    '',
  ].join('\n');
  return {
    'open-validators.ts': renderKind(dialects, 'open'),
    'strict-validators.ts': renderKind(dialects, 'strict'),
    'schema-validators.ts': all,
  };
}
