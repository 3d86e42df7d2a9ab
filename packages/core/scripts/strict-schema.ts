/**
 * Derives the strict variant of a dialect schema: the same schema, with `unevaluatedProperties: false` on every
 * object it describes, so a field it does not name is reported. Deriving it keeps one hand-written schema per dialect.
 */

/** A JSON Schema object (boolean schemas need no change). */
export type SchemaObject = { [keyword: string]: unknown };

/** Keywords whose subschemas describe a value one level down (a new instance location). */
const LOCATION_MAPS = ['properties', 'patternProperties'] as const;
const LOCATION_SINGLES = ['additionalProperties', 'items'] as const;

/** Keywords whose subschemas apply to the same value: their fields count as evaluated for the parent. */
const IN_PLACE_SINGLES = ['then', 'else'] as const;
const IN_PLACE_ARRAYS = ['allOf', 'anyOf', 'oneOf'] as const;

/**
 * Returns a copy of `schema` in which every subschema at an instance location that names fields gets
 * `unevaluatedProperties: false`.
 *
 * Only locations are closed, never the `$defs` reached in place through `$ref`/`then`: in 2020-12, a location's
 * `unevaluatedProperties` sees the fields of all its in-place subschemas, while a `$def` closed on its own would
 * reject the fields its siblings name. Conditions (`if`, `not`, `contains`, `propertyNames`) are left as they are,
 * since closing them would change what they match.
 *
 * @param schema - A dialect schema whose local `$ref`s all point into its `$defs`.
 * @returns The strict schema; `schema` itself is not changed.
 */
export function deriveStrictSchema(schema: SchemaObject): SchemaObject {
  const strict = structuredClone(schema);
  const defs = isSchemaObject(strict.$defs) ? strict.$defs : {};
  closeLocations(strict, true, defs);
  return strict;
}

function closeLocations(node: unknown, atLocation: boolean, defs: SchemaObject): void {
  if (!isSchemaObject(node)) return;
  if (atLocation && !('unevaluatedProperties' in node) && namesFields(node, defs, new Set())) {
    // ajv's strict types want `type` beside `unevaluatedProperties`; a bare `$ref` gets its target's, which changes nothing.
    if (!('type' in node)) node.type = declaredType(node, defs);
    node.unevaluatedProperties = false;
  }
  for (const keyword of LOCATION_MAPS) {
    for (const child of schemaValues(node[keyword])) closeLocations(child, true, defs);
  }
  for (const keyword of LOCATION_SINGLES) closeLocations(node[keyword], true, defs);
  for (const keyword of IN_PLACE_SINGLES) closeLocations(node[keyword], false, defs);
  for (const keyword of IN_PLACE_ARRAYS) {
    for (const child of arrayValues(node[keyword])) closeLocations(child, false, defs);
  }
  for (const child of schemaValues(node.$defs)) closeLocations(child, false, defs);
}

/** Whether a subschema, with what it applies in place, names any field of the object it describes. */
function namesFields(node: SchemaObject, defs: SchemaObject, seen: Set<string>): boolean {
  if (isSchemaObject(node.properties) || isSchemaObject(node.patternProperties)) return true;
  const target = typeof node.$ref === 'string' ? resolveLocalRef(node.$ref, defs, seen) : undefined;
  if (target !== undefined && namesFields(target, defs, seen)) return true;
  const inPlace = [
    ...IN_PLACE_SINGLES.map((keyword) => node[keyword]),
    ...IN_PLACE_ARRAYS.flatMap((keyword) => arrayValues(node[keyword])),
  ];
  return inPlace.some((child) => isSchemaObject(child) && namesFields(child, defs, seen));
}

/** The `type` a subschema declares, itself or through its `$ref` chain. */
function declaredType(node: SchemaObject, defs: SchemaObject): unknown {
  if ('type' in node) return node.type;
  const target = typeof node.$ref === 'string' ? resolveLocalRef(node.$ref, defs, new Set()) : undefined;
  if (target === undefined) throw new Error('strict variant: an object location declares no type');
  return declaredType(target, defs);
}

function resolveLocalRef(ref: string, defs: SchemaObject, seen: Set<string>): SchemaObject | undefined {
  const match = /^#\/\$defs\/([^/]+)$/.exec(ref);
  if (match?.[1] === undefined)
    throw new Error(`strict variant: only "#/$defs/<name>" refs are supported, got ${ref}`);
  if (seen.has(ref)) return undefined;
  seen.add(ref);
  const target = defs[match[1]];
  if (!isSchemaObject(target)) throw new Error(`strict variant: ${ref} points at no schema`);
  return target;
}

function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function schemaValues(value: unknown): unknown[] {
  return isSchemaObject(value) ? Object.values(value) : [];
}

function arrayValues(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
