/**
 * Validation of records and canonical events against the JSON Schemas in `schemas/`, through the standalone
 * validators generated from them at build time (no schema compilation at run time, so no `eval` in browsers). The
 * validators are installed here rather than imported, so that code which never validates need not load them.
 */

import type { JsonObject, SchemaIssue, ValidateOptions } from '../dialect.ts';
import type { BuiltInDialectName } from '../dialects/registry.ts';
import { exceedsJsonDepth, MAX_JSON_DEPTH, mayNestDeeperThan } from '../safe-json.ts';
import { toSchemaIssues, type ValidatorError } from './schema-issues.ts';

/** A generated validator: returns whether `data` is valid and leaves its errors on `errors`. */
export interface GeneratedValidator {
  (data: unknown): boolean;
  errors?: readonly ValidatorError[] | null;
}

/** One generated validator per built-in dialect. */
export type DialectValidators = Readonly<Record<BuiltInDialectName, GeneratedValidator>>;

/** The validators of every schema: each built-in dialect's, open and strict, and the canonical events'. */
export interface SchemaValidators {
  /** Each dialect's schema as written: what `validate` checks by default. */
  readonly open: DialectValidators;
  /** Each dialect's schema with unknown fields rejected: what `validate(record, { strict: true })` also checks. */
  readonly strict: DialectValidators;
  /** The closed schema of the canonical events. */
  readonly canonical: GeneratedValidator;
}

/** A kind of generated validators, each loaded on its own: every kind is a large module. */
export type SchemaValidatorKind = keyof SchemaValidators;

/** The kinds of validators, in the order they are loaded when all are asked for. */
export const SCHEMA_VALIDATOR_KINDS: readonly SchemaValidatorKind[] = ['open', 'strict', 'canonical'];

let installed: Partial<SchemaValidators> = {};

/** Makes `validators` the ones of their kinds used from now on; the kinds not given stay as they are. */
export function installSchemaValidators(validators: Partial<SchemaValidators>): void {
  installed = { ...installed, ...validators };
}

/** Whether the validators of `kind` are loaded, so that validation by them works synchronously. */
export function schemaValidatorsLoaded(kind: SchemaValidatorKind): boolean {
  return installed[kind] !== undefined;
}

function loaded<Kind extends SchemaValidatorKind>(kind: Kind): SchemaValidators[Kind] {
  const validators = installed[kind];
  if (validators === undefined) {
    throw new TypeError(
      `${kind} schema validators are not loaded: import from '@cursor-stream/core', or await loadSchemaValidators(['${kind}']) first`,
    );
  }
  return validators as SchemaValidators[Kind];
}

/**
 * Checks one record against its dialect's schema (`schemas/<dialect>.schema.json`).
 *
 * @param dialect - Which dialect's schema to use.
 * @param record - The record as the tokenizer parsed it.
 * @param options - `strict: true` also reports fields the schema does not name; by default they are allowed, as the
 *   formats allow them.
 * @returns The issues, empty when the record is valid. Validation stops at the first failing keyword, so a bad record
 *   usually gives one issue; strict validation lists every field the schema does not name (the first
 *   {@link MAX_UNKNOWN_FIELDS_LISTED}), each with its pointer. A record nested deeper than {@link MAX_JSON_DEPTH}
 *   is one issue of keyword `too-deep` in strict mode, as the normalizer reads it: listing its unknown fields takes
 *   them out of a copy, and no copy of any depth can be made.
 */
export function validateDialectRecord(
  dialect: BuiltInDialectName,
  record: JsonObject,
  options?: ValidateOptions,
): SchemaIssue[] {
  const open = loaded('open')[dialect];
  if (options?.strict !== true) return check(open, record);
  const strict = loaded('strict')[dialect];
  const mayBeTooDeep =
    options.textLength === undefined || mayNestDeeperThan(options.textLength, MAX_JSON_DEPTH);
  if (mayBeTooDeep && exceedsJsonDepth(record, MAX_JSON_DEPTH)) return [{ ...TOO_DEEP }];
  return strictIssues({ open, strict }, record);
}

/** The keyword of the issue a record too deep to check strictly gets; the normalizer's code for such a record. */
export const TOO_DEEP_KEYWORD = 'too-deep';

const TOO_DEEP: SchemaIssue = {
  pointer: '',
  message: `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
  keyword: TOO_DEEP_KEYWORD,
};

/** The most unknown fields listed for one record: enough to see what a new CLI release added, bounded for noise. */
export const MAX_UNKNOWN_FIELDS_LISTED = 20;

const UNKNOWN_FIELD_KEYWORDS = new Set(['additionalProperties', 'unevaluatedProperties']);

/**
 * Every field of `record` the strict schema does not name (the first {@link MAX_UNKNOWN_FIELDS_LISTED}), then what the
 * open schema finds wrong. The validator stops at its first error, which is exact; collecting all errors instead would
 * report the fields of every object around an unknown one too (a failed branch evaluates nothing). So each unknown
 * field found is taken out of a copy and the copy checked again.
 */
function strictIssues(
  validators: { readonly open: GeneratedValidator; readonly strict: GeneratedValidator },
  record: JsonObject,
): SchemaIssue[] {
  let issues = check(validators.strict, record);
  if (!issues.some(isUnknownField)) return issues;
  const found: SchemaIssue[] = [];
  const copy = structuredClone(record);
  while (found.length < MAX_UNKNOWN_FIELDS_LISTED) {
    const unknown = issues.filter(isUnknownField);
    if (unknown.length === 0) break;
    for (const issue of unknown) {
      found.push(issue);
      removeAt(copy, issue.pointer);
    }
    issues = check(validators.strict, copy);
  }
  // Taking fields out may break what holds them (an emptied result); the record as it is is judged by the open schema.
  return [...found.slice(0, MAX_UNKNOWN_FIELDS_LISTED), ...check(validators.open, record)];
}

function isUnknownField(issue: SchemaIssue): boolean {
  return UNKNOWN_FIELD_KEYWORDS.has(issue.keyword);
}

/** Deletes the value at a JSON Pointer (RFC 6901) inside `root`; nothing when the path is not there. */
function removeAt(root: JsonObject, pointer: string): void {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
  const last = tokens.pop();
  let node: unknown = root;
  for (const token of tokens) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[token] : undefined;
  }
  if (last !== undefined && typeof node === 'object' && node !== null)
    delete (node as Record<string, unknown>)[last];
}

/**
 * Checks a value against the closed canonical-event schema (`schemas/canonical-event.schema.json`): a field or
 * `type` it does not name is an issue, since this project produces these events.
 *
 * @param event - Any value, e.g. an event a normalizer emitted.
 * @returns The issues, empty when `event` is a valid canonical event.
 */
export function validateCanonicalEvent(event: unknown): SchemaIssue[] {
  return check(loaded('canonical'), event);
}

function check(validator: GeneratedValidator, data: unknown): SchemaIssue[] {
  return validator(data) ? [] : toSchemaIssues(validator.errors ?? []);
}
