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
import { isSchemaObject, transformSchemas } from './subschemas.ts';

/** Whether a pattern of `patterns` that matches `name` applies `subschema` itself. */
function coveredByPattern(name: string, subschema: unknown, patterns: SchemaObject): boolean {
  return Object.entries(patterns).some(
    ([pattern, applied]) => new RegExp(pattern, 'u').test(name) && isDeepStrictEqual(applied, subschema),
  );
}

/**
 * A copy of `schema` without the `properties` entries its patterns cover; `schema` itself is not changed. Only
 * subschemas are looked into: a `const`, an `enum` or a property named `properties` is data, left as it is.
 */
export function dropPatternCoveredProperties(schema: SchemaObject): SchemaObject {
  return transformSchemas(schema, (subschema) => {
    const { properties, patternProperties } = subschema;
    if (!isSchemaObject(properties) || !isSchemaObject(patternProperties)) return subschema;
    const kept = Object.entries(properties).filter(
      ([name, applied]) => !coveredByPattern(name, applied, patternProperties),
    );
    return { ...subschema, properties: Object.fromEntries(kept) };
  });
}
