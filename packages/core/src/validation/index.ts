/**
 * Validation of records and canonical events against the JSON Schemas in `schemas/`, through the standalone
 * validators generated from them at build time (no schema compilation at run time, so no `eval` in browsers).
 */

import type { JsonObject, SchemaIssue, ValidateOptions } from '../dialect.ts';
import type { BuiltInDialectName } from '../dialect-names.ts';
import { validate as validateCanonical } from '../generated/canonical-event.js';
import { validate as validateOfficial } from '../generated/official.js';
import { validate as validateOfficialStrict } from '../generated/official-strict.js';
import { validate as validatePayloadEnvelope } from '../generated/payload-envelope.js';
import { validate as validatePayloadEnvelopeStrict } from '../generated/payload-envelope-strict.js';
import { validate as validatePythonWrapper } from '../generated/python-wrapper.js';
import { validate as validatePythonWrapperStrict } from '../generated/python-wrapper-strict.js';
import { toSchemaIssues, type ValidatorError } from './schema-issues.ts';

/** A generated validator: returns whether `data` is valid and leaves its errors on `errors`. */
interface GeneratedValidator {
  (data: unknown): boolean;
  errors?: readonly ValidatorError[] | null;
}

/** Each built-in dialect's schema (`schemas/<name>.schema.json`) as written (open) and its strict variant. */
const DIALECT_VALIDATORS: Readonly<
  Record<BuiltInDialectName, { readonly open: GeneratedValidator; readonly strict: GeneratedValidator }>
> = {
  official: { open: validateOfficial, strict: validateOfficialStrict },
  'python-wrapper': { open: validatePythonWrapper, strict: validatePythonWrapperStrict },
  'payload-envelope': { open: validatePayloadEnvelope, strict: validatePayloadEnvelopeStrict },
};

/**
 * Checks one record against its dialect's schema (`schemas/<dialect>.schema.json`).
 *
 * @param dialect - Which dialect's schema to use.
 * @param record - The record as the tokenizer parsed it.
 * @param options - `strict: true` also reports fields the schema does not name; by default they are allowed, as the
 *   formats allow them.
 * @returns The issues, empty when the record is valid. Validation stops at the first failing keyword, so a bad record
 *   usually gives one issue.
 */
export function validateDialectRecord(
  dialect: BuiltInDialectName,
  record: JsonObject,
  options?: ValidateOptions,
): SchemaIssue[] {
  const validators = DIALECT_VALIDATORS[dialect];
  return check(options?.strict === true ? validators.strict : validators.open, record);
}

/**
 * Checks a value against the closed canonical-event schema (`schemas/canonical-event.schema.json`): a field or
 * `type` it does not name is an issue, since this project produces these events.
 *
 * @param event - Any value, e.g. an event a normalizer emitted.
 * @returns The issues, empty when `event` is a valid canonical event.
 */
export function validateCanonicalEvent(event: unknown): SchemaIssue[] {
  return check(validateCanonical, event);
}

function check(validator: GeneratedValidator, data: unknown): SchemaIssue[] {
  return validator(data) ? [] : toSchemaIssues(validator.errors ?? []);
}
