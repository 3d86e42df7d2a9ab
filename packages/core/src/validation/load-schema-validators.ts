import { installSchemaValidators, schemaValidatorsLoaded } from './validator-registry.ts';

/**
 * Loads the generated schema validators (about 870 KB of code) when they are first needed, for code that imports
 * `@cursor-stream/core/normalize` to start fast. The full `@cursor-stream/core` entry has them loaded already.
 *
 * @example
 * ```ts
 * import { loadSchemaValidators, officialDialect } from '@cursor-stream/core/normalize';
 * await loadSchemaValidators();
 * const issues = officialDialect.validate(record);
 * ```
 */
export async function loadSchemaValidators(): Promise<void> {
  if (schemaValidatorsLoaded()) return;
  const { GENERATED_VALIDATORS } = await import('../generated/schema-validators.ts');
  installSchemaValidators(GENERATED_VALIDATORS);
}
