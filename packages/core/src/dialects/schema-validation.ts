import type { JsonObject, SchemaIssue, ValidateOptions } from '../dialect.ts';
import { validateDialectRecord } from '../validation/validator-registry.ts';
import type { BuiltInDialectName } from './registry.ts';

/** A built-in dialect's `validate`: its record checked against the dialect's JSON Schema (generated validators). */
export function schemaValidator(
  name: BuiltInDialectName,
): (record: JsonObject, options?: ValidateOptions) => readonly SchemaIssue[] {
  return (record, options) => validateDialectRecord(name, record, options);
}
