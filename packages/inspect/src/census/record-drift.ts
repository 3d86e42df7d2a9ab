/**
 * What a dialect's schema does not know about one record: its unknown fields and the values it does not allow where
 * it names the allowed ones (`enum`, `const`). Read from the dialect's own strict validation, so that "known" means
 * exactly what the JSON Schemas say, with no list kept beside them.
 */

import {
  type Dialect,
  type JsonObject,
  type SchemaIssue,
  TOO_DEEP_KEYWORD,
} from '@cursor-stream/core/normalize';

/** One thing the schema does not know, at a JSON Pointer into the record. */
export type DriftItem =
  | { readonly kind: 'field'; readonly pointer: string }
  | { readonly kind: 'value'; readonly pointer: string; readonly value: unknown };

/** The drift of one record, and the first schema violation that stopped the reading of it, if any. */
export interface RecordDrift {
  readonly items: DriftItem[];
  readonly violation: SchemaIssue | null;
}

/** The keywords a schema reports an unexpected property with. */
const UNKNOWN_FIELD_KEYWORDS = new Set(['additionalProperties', 'unevaluatedProperties']);
/** The keywords a schema reports a value outside its named values with. */
const UNKNOWN_VALUE_KEYWORDS = new Set(['enum', 'const']);

/**
 * Validation passes per record. A validator may stop at its first failure, so each pass takes out what it found and
 * looks again; this bounds the work on a record made of nothing but unknown fields.
 */
export const MAX_VALIDATION_PASSES = 64;

const NO_DRIFT: RecordDrift = { items: [], violation: null };

/**
 * Lists every field and enumerated value of `record` that `dialect`'s strict schema does not know, up to
 * {@link MAX_VALIDATION_PASSES} passes. `record` is not changed. A record nested too deep to check has none: the
 * normalizer reads it as a `too-deep` invalid line, which the census counts where it is.
 *
 * @param textLength - The length of the record's text, when known (see `ValidateOptions.textLength`).
 */
export function recordDrift(dialect: Dialect, record: JsonObject, textLength?: number): RecordDrift {
  // Taking fields out of the copy never nests it deeper: the record's length bounds its depth in every pass.
  const options = textLength === undefined ? { strict: true } : { strict: true, textLength };
  let issues = dialect.validate(record, options);
  if (issues.length === 0 || issues.some((issue) => issue.keyword === TOO_DEEP_KEYWORD)) return NO_DRIFT;
  const copy = structuredClone(record);
  const items: DriftItem[] = [];
  const seen = new Set<string>();
  for (let pass = 0; pass < MAX_VALIDATION_PASSES && issues.length > 0; pass++) {
    const progressed = takeOut(copy, issues, items, seen);
    if (progressed === 'stuck') return { items, violation: firstViolation(issues) };
    issues = dialect.validate(copy, options);
  }
  return { items, violation: null };
}

function firstViolation(issues: readonly SchemaIssue[]): SchemaIssue | null {
  const isDrift = (issue: SchemaIssue) =>
    UNKNOWN_FIELD_KEYWORDS.has(issue.keyword) || UNKNOWN_VALUE_KEYWORDS.has(issue.keyword);
  return issues.find((issue) => !isDrift(issue)) ?? issues[0] ?? null;
}

/** Records and removes what `issues` report as unknown; `stuck` when an issue is something else. */
function takeOut(copy: JsonObject, issues: readonly SchemaIssue[], items: DriftItem[], seen: Set<string>) {
  let progressed = false;
  for (const issue of issues) {
    const key = `${issue.keyword}\u0000${issue.pointer}`;
    if (seen.has(key)) continue;
    if (UNKNOWN_FIELD_KEYWORDS.has(issue.keyword)) {
      items.push({ kind: 'field', pointer: issue.pointer });
      removeAt(copy, issue.pointer);
    } else if (UNKNOWN_VALUE_KEYWORDS.has(issue.keyword)) {
      items.push({ kind: 'value', pointer: issue.pointer, value: valueAt(copy, issue.pointer) });
      replaceWithAllowed(copy, issue);
    } else continue;
    seen.add(key);
    progressed = true;
  }
  return progressed ? 'progressed' : 'stuck';
}

/** RFC 6901 reference tokens of a pointer. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function childOf(container: unknown, token: string): unknown {
  if (Array.isArray(container)) return container[Number(token)];
  if (typeof container === 'object' && container !== null) return (container as JsonObject)[token];
  return undefined;
}

/** The value at a pointer, or `undefined` when the path does not exist. */
export function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of pointerTokens(pointer)) node = childOf(node, token);
  return node;
}

function parentAndKey(root: JsonObject, pointer: string): [unknown, string] | null {
  const tokens = pointerTokens(pointer);
  const key = tokens.pop();
  if (key === undefined) return null;
  let node: unknown = root;
  for (const token of tokens) node = childOf(node, token);
  return [node, key];
}

function removeAt(root: JsonObject, pointer: string): void {
  const found = parentAndKey(root, pointer);
  if (found === null) return;
  const [parent, key] = found;
  if (typeof parent === 'object' && parent !== null && !Array.isArray(parent))
    delete (parent as JsonObject)[key];
}

/**
 * Puts an allowed value where an unknown one was, so that the next pass reads on past it. The allowed values come
 * from the issue's message (`must be "text"`, `must be one of "a", "b"`); when it cannot be read the field goes.
 */
function replaceWithAllowed(root: JsonObject, issue: SchemaIssue): void {
  const found = parentAndKey(root, issue.pointer);
  const allowed = allowedValue(issue.message);
  if (found === null) return;
  const [parent, key] = found;
  if (allowed === undefined) {
    removeAt(root, issue.pointer);
    return;
  }
  if (Array.isArray(parent)) parent[Number(key)] = allowed;
  else if (typeof parent === 'object' && parent !== null) (parent as JsonObject)[key] = allowed;
}

function allowedValue(message: string): unknown {
  const match = /^must be (?:one of |equal to one of the allowed values)?(.*)$/s.exec(message);
  if (match?.[1] === undefined || match[1] === '') return undefined;
  try {
    const values = JSON.parse(`[${match[1]}]`) as unknown[];
    return values[0];
  } catch {
    return undefined;
  }
}

/**
 * The pointer with array indices replaced by `*`, so that one field of every element of a list is one census entry
 * (`/message/content/*\/type`), not one per position.
 */
export function censusPointer(record: unknown, pointer: string): string {
  let node = record;
  let result = '';
  for (const token of pointerTokens(pointer)) {
    const escaped = Array.isArray(node) ? '*' : token.replaceAll('~', '~0').replaceAll('/', '~1');
    result += `/${escaped}`;
    node = childOf(node, token);
  }
  return result;
}
