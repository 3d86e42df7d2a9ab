/**
 * Turns the errors of a generated validator into {@link SchemaIssue}s: one per real problem, pointing at the field
 * itself, without the bookkeeping errors that branching keywords add.
 */

import type { SchemaIssue } from '../dialect.ts';

/** The fields of an ajv validation error that the mapping reads. */
export interface ValidatorError {
  /** JSON Pointer to the value that failed. */
  instancePath: string;
  /** JSON Pointer into the schema, to the keyword that failed. */
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Keywords whose error only says that some branch failed; the branch's own errors say why. */
const BRANCHING = new Set(['anyOf', 'oneOf']);

/** Keywords whose error names a field of the object at `instancePath`; the pointer then ends at that field. */
const FIELD_PARAM: Readonly<Record<string, string>> = {
  required: 'missingProperty',
  dependentRequired: 'missingProperty',
  additionalProperties: 'additionalProperty',
  unevaluatedProperties: 'unevaluatedProperty',
};

/**
 * Maps validator errors to issues, most specific first as the validator found them.
 *
 * `if` errors are dropped: they only repeat that the `then`/`else` branch failed. An `anyOf`/`oneOf` error is replaced
 * by the errors of its branch that got deepest into the value (the one the value most likely meant); it stays only
 * when no branch error explains it (`oneOf` matched more than one branch).
 *
 * @param errors - The `errors` of a generated validator after it returned false.
 * @returns One issue per distinct pointer, keyword and message.
 */
export function toSchemaIssues(errors: readonly ValidatorError[]): SchemaIssue[] {
  const kept = keepSpecificErrors(errors);
  const issues = new Map<string, SchemaIssue>();
  for (const error of kept) {
    const issue = toSchemaIssue(error);
    issues.set(`${issue.pointer}\u0000${issue.keyword}\u0000${issue.message}`, issue);
  }
  return [...issues.values()];
}

function keepSpecificErrors(errors: readonly ValidatorError[]): ValidatorError[] {
  const dropped = new Set<ValidatorError>(errors.filter((error) => error.keyword === 'if'));
  // Innermost branching first, so that an outer one sees what its inner ones left.
  const branching = errors
    .filter((error) => BRANCHING.has(error.keyword))
    .sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  for (const combinator of branching) {
    const prefix = `${combinator.schemaPath}/`;
    const inner = errors.filter((error) => !dropped.has(error) && error.schemaPath.startsWith(prefix));
    if (inner.length === 0) continue;
    const best = deepestBranch(inner, prefix);
    for (const error of inner) if (!best.has(error)) dropped.add(error);
    dropped.add(combinator);
  }
  return errors.filter((error) => !dropped.has(error));
}

/** The errors of the branch (`<combinator>/<index>/…`) whose deepest error lies deepest in the value. */
function deepestBranch(inner: readonly ValidatorError[], prefix: string): Set<ValidatorError> {
  const byBranch = new Map<string, ValidatorError[]>();
  for (const error of inner) {
    const branch = error.schemaPath.slice(prefix.length).split('/')[0] ?? '';
    byBranch.set(branch, [...(byBranch.get(branch) ?? []), error]);
  }
  let best: ValidatorError[] = [];
  let bestDepth = -1;
  for (const branch of byBranch.values()) {
    const depth = Math.max(...branch.map((error) => error.instancePath.split('/').length));
    if (depth > bestDepth) [best, bestDepth] = [branch, depth];
  }
  return new Set(best);
}

function toSchemaIssue(error: ValidatorError): SchemaIssue {
  const paramName = FIELD_PARAM[error.keyword];
  const field = paramName === undefined ? undefined : error.params[paramName];
  const pointer =
    typeof field === 'string' ? `${error.instancePath}/${escapePointerToken(field)}` : error.instancePath;
  return { pointer, message: describe(error), keyword: error.keyword };
}

function describe(error: ValidatorError): string {
  switch (error.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not a field the schema knows';
    case 'const':
      return `must be ${JSON.stringify(error.params.allowedValue)}`;
    case 'enum':
      return `must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    default:
      return error.message ?? `fails "${error.keyword}"`;
  }
}

/** RFC 6901: `~` and `/` inside a reference token are escaped. */
function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}
