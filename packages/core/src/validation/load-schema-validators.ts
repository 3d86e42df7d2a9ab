import {
  installSchemaValidators,
  SCHEMA_VALIDATOR_KINDS,
  type SchemaValidatorKind,
  type SchemaValidators,
  schemaValidatorsLoaded,
} from './validator-registry.ts';

/** Each kind's module, imported only when that kind is asked for. */
const LOAD: { readonly [Kind in SchemaValidatorKind]: () => Promise<SchemaValidators[Kind]> } = {
  open: async () => (await import('../generated/open-validators.ts')).OPEN_VALIDATORS,
  strict: async () => (await import('../generated/strict-validators.ts')).STRICT_VALIDATORS,
  canonical: async () => (await import('../generated/canonical-event.js')).validate,
};

/**
 * Loads the generated schema validators (about 1.3 MB of code in all) when they are first needed, for code that
 * imports `@cursor-stream/core/normalize` to start fast. The full `@cursor-stream/core` entry has them loaded
 * already.
 *
 * @param kinds - The kinds to load, every kind by default: `open` for `dialect.validate(record)`, `strict` (which
 *   loads `open` too, as strict validation reports what both find) for `validate(record, { strict: true })`,
 *   `canonical` for `validateCanonicalEvent`. The open and the strict ones are each over a third of the code, so a
 *   command that validates in one way loads that way's alone.
 *
 * @example
 * ```ts
 * import { loadSchemaValidators, officialDialect } from '@cursor-stream/core/normalize';
 * await loadSchemaValidators(['open']);
 * const issues = officialDialect.validate(record);
 * ```
 */
export async function loadSchemaValidators(
  kinds: readonly SchemaValidatorKind[] = SCHEMA_VALIDATOR_KINDS,
): Promise<void> {
  const wanted = new Set(kinds);
  if (wanted.has('strict')) wanted.add('open');
  await Promise.all(
    [...wanted]
      .filter((kind) => !schemaValidatorsLoaded(kind))
      .map(async (kind) => installSchemaValidators({ [kind]: await LOAD[kind]() })),
  );
}
