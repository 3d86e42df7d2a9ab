/** Walking a JSON Schema's subschemas by keyword, for the transforms a schema goes through before it is compiled. */

import type { SchemaObject } from './strict-schema.ts';

/** Whether `value` is a schema object (not a boolean schema, an array or a scalar). */
export function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value is one subschema. */
const SCHEMA_SINGLES = new Set([
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);

/**
 * A copy of `schema` with each of its immediate subschemas replaced by what `change` makes of it. Only subschemas are
 * handed to `change`, found by keyword: a `const`, an `enum` or a property named `properties` is data, copied as it is.
 */
function mapSubschemas(schema: SchemaObject, change: (subschema: unknown) => unknown): SchemaObject {
  const result: SchemaObject = {};
  for (const [keyword, item] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(keyword) && isSchemaObject(item))
      result[keyword] = Object.fromEntries(
        Object.entries(item).map(([name, value]) => [name, change(value)]),
      );
    else if (SCHEMA_LISTS.has(keyword) && Array.isArray(item)) result[keyword] = item.map(change);
    else if (SCHEMA_SINGLES.has(keyword)) result[keyword] = change(item);
    else result[keyword] = item;
  }
  return result;
}

/** A copy of `schema` with `change` applied to every schema object in it, innermost first. */
export function transformSchemas(
  schema: SchemaObject,
  change: (schema: SchemaObject) => SchemaObject,
): SchemaObject {
  const visit = (value: unknown): unknown =>
    isSchemaObject(value) ? change(mapSubschemas(value, visit)) : value;
  return visit(schema) as SchemaObject;
}
