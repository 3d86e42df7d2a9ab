/**
 * Validation of records and canonical events against the JSON Schemas in `schemas/`, through the standalone
 * validators generated from them at build time (no schema compilation at run time, so no `eval` in browsers). The
 * validators are installed here rather than imported, so that code which never validates need not load them.
 */

import type { JsonObject, SchemaIssue, ValidateOptions } from '../dialect.ts';
import type { BuiltInDialectName } from '../dialect-names.ts';
import { toSchemaIssues, type ValidatorError } from './schema-issues.ts';

/** A generated validator: returns whether `data` is valid and leaves its errors on `errors`. */
export interface GeneratedValidator {
  (data: unknown): boolean;
  errors?: readonly ValidatorError[] | null;
}

/** The validators of every schema: each built-in dialect's, open and strict, and the canonical events'. */
export interface SchemaValidators {
  readonly dialects: Readonly<
    Record<BuiltInDialectName, { readonly open: GeneratedValidator; readonly strict: GeneratedValidator }>
  >;
  readonly canonical: GeneratedValidator;
}

let installed: SchemaValidators | undefined;

/** Makes `validators` the ones used from now on. */
export function installSchemaValidators(validators: SchemaValidators): void {
  installed = validators;
}

/** Whether the validators are loaded, so that validation works synchronously. */
export function schemaValidatorsLoaded(): boolean {
  return installed !== undefined;
}

function loaded(): SchemaValidators {
  if (installed === undefined) {
    throw new TypeError(
      "schema validators are not loaded: import from '@cursor-stream/core', or await loadSchemaValidators() first",
    );
  }
  return installed;
}

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
  const validators = loaded().dialects[dialect];
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
  return check(loaded().canonical, event);
}

function check(validator: GeneratedValidator, data: unknown): SchemaIssue[] {
  return validator(data) ? [] : toSchemaIssues(validator.errors ?? []);
}
