/**
 * Leaves out, before a schema is compiled, each entry of `properties` that a `patternProperties` entry matching its
 * name already applies, with the same subschema. The official schema names the CLI's 69 tool kinds under `toolCall`,
 * most of them only to document them (`{ $ref: toolInvocation }`, what the `ToolCall$` pattern applies to any kind):
 * compiled as written, every tool call was checked for each of those names, by a property lookup that finds nothing.
 *
 * What is valid does not change: a field matching a pattern is checked by every matching pattern's subschema and by
 * its `properties` entry, and checking the same subschema twice is checking it once. The field still counts as
 * evaluated (the pattern evaluates it), and `additionalProperties` still leaves it alone (it matches a pattern).
 */

import { isDeepStrictEqual } from 'node:util';
import type { SchemaObject } from './strict-schema.ts';

function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a pattern of `patterns` that matches `name` applies `subschema` itself. */
function coveredByPattern(name: string, subschema: unknown, patterns: SchemaObject): boolean {
  return Object.entries(patterns).some(
    ([pattern, applied]) => new RegExp(pattern, 'u').test(name) && isDeepStrictEqual(applied, subschema),
  );
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

function mapValues(map: unknown, change: (value: unknown) => unknown): unknown {
  if (!isSchemaObject(map)) return map;
  return Object.fromEntries(Object.entries(map).map(([name, value]) => [name, change(value)]));
}

/**
 * A copy of `schema` without the `properties` entries its patterns cover; `schema` itself is not changed. Only
 * subschemas are looked into, by keyword: a `const`, an `enum` or a property named `properties` is data, left as it is.
 */
export function dropPatternCoveredProperties(schema: SchemaObject): SchemaObject {
  const inSchema = (value: unknown): unknown => {
    if (!isSchemaObject(value)) return value;
    const result: SchemaObject = {};
    for (const [keyword, item] of Object.entries(value)) {
      if (SCHEMA_MAPS.has(keyword)) result[keyword] = mapValues(item, inSchema);
      else if (SCHEMA_LISTS.has(keyword)) result[keyword] = Array.isArray(item) ? item.map(inSchema) : item;
      else if (SCHEMA_SINGLES.has(keyword)) result[keyword] = inSchema(item);
      else result[keyword] = item;
    }
    const { properties, patternProperties } = result;
    if (isSchemaObject(properties) && isSchemaObject(patternProperties)) {
      result.properties = Object.fromEntries(
        Object.entries(properties).filter(
          ([name, subschema]) => !coveredByPattern(name, subschema, patternProperties),
        ),
      );
    }
    return result;
  };
  return inSchema(schema) as SchemaObject;
}
