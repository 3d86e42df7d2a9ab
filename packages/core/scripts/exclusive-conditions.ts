/**
 * Turns, before a schema is compiled, the `allOf` of `if`/`then` pairs that a dialect schema dispatches its records
 * by (`if` the type is `system` `then` ..., `if` it is `user` `then` ...) into one `if`/`then`/`else` chain. Every `if`
 * of an `allOf` is tested, and ajv's code for a failed `if` allocates its errors only to drop them: each record paid
 * for every type it is not, the most allocation of anything `validate` does. Along a chain, the tests stop at the
 * record's type.
 *
 * Only conditions that cannot hold together are chained: each of the form `{ type: 'object', required: [P],
 * properties: { P: { const | enum } } }`, one property P for all, with string values no two share. At most one of them holds
 * for any value, so requiring every pair (`allOf`) and taking the first whose condition holds (the chain) accept the
 * same values and evaluate the same fields; the issues differ only in the `if` errors, which issues leave out.
 */

import type { SchemaObject } from './strict-schema.ts';
import { isSchemaObject, transformSchemas } from './subschemas.ts';

/** A pair of an `allOf` whose condition names the values of one property it holds for. */
interface Dispatch {
  readonly property: string;
  readonly values: readonly unknown[];
  readonly pair: SchemaObject;
}

/** The property and values an `if`/`then` pair (no `else`) dispatches on, when its condition is of the form above. */
function dispatchOf(pair: unknown): Dispatch | undefined {
  if (!isSchemaObject(pair) || !isSameKeys(pair, ['if', 'then'])) return undefined;
  const condition = pair.if;
  if (!isSchemaObject(condition) || !isSameKeys(condition, ['type', 'required', 'properties']))
    return undefined;
  const { type, required, properties } = condition;
  if (type !== 'object' || !Array.isArray(required) || required.length !== 1) return undefined;
  const property = required[0];
  if (typeof property !== 'string' || !isSchemaObject(properties) || !isSameKeys(properties, [property]))
    return undefined;
  const test = properties[property];
  if (!isSchemaObject(test)) return undefined;
  if (isSameKeys(test, ['const'])) return { property, values: [test.const], pair };
  if (isSameKeys(test, ['enum']) && Array.isArray(test.enum)) return { property, values: test.enum, pair };
  return undefined;
}

function isSameKeys(object: SchemaObject, keys: readonly string[]): boolean {
  const own = Object.keys(object);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(object, key));
}

/**
 * Whether no value is named by two of `dispatches`. Strings only, which are equal exactly when JSON Schema says so
 * (numbers and objects have other equalities: `0` and `-0`, fields in another order).
 */
function disjoint(dispatches: readonly Dispatch[]): boolean {
  const seen = new Set<string>();
  for (const value of dispatches.flatMap((dispatch) => dispatch.values)) {
    if (typeof value !== 'string' || seen.has(value)) return false;
    seen.add(value);
  }
  return true;
}

/** The pairs as one chain: each pair's `else` is the chain of the pairs after it. */
function chained(pairs: readonly SchemaObject[]): SchemaObject {
  const [first, ...rest] = pairs;
  if (first === undefined) return {};
  return rest.length === 0 ? first : { ...first, else: chained(rest) };
}

/** `allOf`'s items with its pairs that dispatch on one property chained, where at least two of them do. */
function chainedItems(items: readonly unknown[]): unknown[] {
  const dispatches = items.map(dispatchOf);
  const byProperty = new Map<string, Dispatch[]>();
  for (const dispatch of dispatches) {
    if (dispatch === undefined) continue;
    const same = byProperty.get(dispatch.property) ?? [];
    same.push(dispatch);
    byProperty.set(dispatch.property, same);
  }
  let result = [...items];
  for (const same of byProperty.values()) {
    if (same.length < 2 || !disjoint(same)) continue;
    const pairs = new Set<unknown>(same.map((dispatch) => dispatch.pair));
    const at = result.findIndex((item) => pairs.has(item));
    const chain = chained(same.map((dispatch) => dispatch.pair));
    result = result.flatMap((item, index) => (index === at ? [chain] : pairs.has(item) ? [] : [item]));
  }
  return result;
}

/** A copy of `schema` with its dispatching `allOf`s chained; `schema` itself is not changed. */
export function chainExclusiveConditions(schema: SchemaObject): SchemaObject {
  return transformSchemas(schema, (subschema) =>
    Array.isArray(subschema.allOf) ? { ...subschema, allOf: chainedItems(subschema.allOf) } : subschema,
  );
}
