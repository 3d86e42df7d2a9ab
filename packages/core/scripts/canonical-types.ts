/**
 * TypeScript declarations generated from the canonical-event schema, so that a type-level test can hold them against
 * the hand-written union in `src/events.ts`: TypeScript 7 has no compiler API to read types at test time.
 */

import { compile } from 'json-schema-to-typescript';
import type { SchemaObject } from './strict-schema.ts';

/**
 * Lists the `$defs` that the schema's `type` dispatch selects (`allOf[].then.$ref`), in the schema's order.
 *
 * @param schema - The canonical-event schema.
 * @returns One `#/$defs/<name>` ref per canonical event type.
 */
export function eventDefinitionRefs(schema: SchemaObject): string[] {
  const branches = Array.isArray(schema.allOf) ? (schema.allOf as unknown[]) : [];
  return branches.map((branch) => {
    const ref = (branch as { then?: { $ref?: unknown } }).then?.$ref;
    if (typeof ref !== 'string')
      throw new Error('canonical schema: every allOf branch must be if/then with a $ref');
    return ref;
  });
}

/**
 * Renders the declarations: one interface per event definition (named by its `title`) and `CanonicalEvent`, their
 * union. The union is read off the schema's own `type` dispatch, so the generator sees the same set the validator does.
 *
 * @param schema - The canonical-event schema.
 * @param banner - A comment to put first.
 * @returns TypeScript source with type exports only.
 */
export async function renderCanonicalTypes(schema: SchemaObject, banner: string): Promise<string> {
  // The generator does not read `if`/`then`, so it gets the definitions as a plain union; the schema file is unchanged.
  const asUnion: SchemaObject = {
    title: 'CanonicalEvent',
    $defs: withoutAnnotationOnlySchemas(structuredClone(schema.$defs)),
    anyOf: eventDefinitionRefs(schema).map(($ref) => ({ $ref })),
  };
  return compile(asUnion as Parameters<typeof compile>[0], 'CanonicalEvent', {
    bannerComment: banner,
    additionalProperties: false,
    strictIndexSignatures: true,
    unknownAny: true,
    declareExternallyReferenced: true,
  });
}

const ANNOTATIONS = new Set(['description', 'title', '$comment', 'examples']);

/**
 * Replaces each property schema made of annotations only (`{description}`: any JSON value) by `{}`, which the
 * generator types as `unknown`; given the annotation alone it would guess an object type.
 */
function withoutAnnotationOnlySchemas(defs: unknown): unknown {
  for (const definition of Object.values(defs as Record<string, { properties?: Record<string, object> }>)) {
    const properties = definition.properties ?? {};
    for (const [name, property] of Object.entries(properties)) {
      if (Object.keys(property).every((key) => ANNOTATIONS.has(key))) properties[name] = {};
    }
  }
  return defs;
}
