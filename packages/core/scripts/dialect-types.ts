/**
 * TypeScript declarations generated from a dialect's schema, so that a type-level test can hold them against the
 * types the format's owner publishes (`@cursor/sdk`'s `SDKMessage`): a schema that drifts from the owner's types then
 * fails to compile.
 */

import { compile } from 'json-schema-to-typescript';
import type { SchemaObject } from './strict-schema.ts';

/** The definitions of each dialect schema to declare, by schema stem. */
export const DIALECT_TYPES: Readonly<Record<string, readonly string[]>> = {
  'cursor-sdk': ['sdkMessage', 'envelope', 'tokenUsage'],
};

type Properties = Record<string, unknown>;

interface Branch {
  if?: { properties?: Record<string, { const?: unknown }> };
  then?: { required?: string[]; properties?: Properties };
}

/**
 * A definition dispatched on its `type` (`allOf` of `if: {type: const}` / `then`) as the union the dispatch means: one
 * object per branch, with the branch's `type` and its fields beside the common ones. The generator reads no
 * `if`/`then`; the schema file is unchanged. A definition without such a dispatch is returned as it is.
 */
export function dispatchAsUnion(definition: SchemaObject): SchemaObject {
  const branches = (Array.isArray(definition.allOf) ? definition.allOf : []) as Branch[];
  const members = branches.flatMap((branch) => {
    const type = branch.if?.properties?.type?.const;
    return type === undefined ? [] : [{ type, fields: branch.then ?? {} }];
  });
  if (members.length === 0) return definition;
  const { allOf: _allOf, properties, required, ...rest } = definition;
  const base = (properties ?? {}) as Properties;
  const baseRequired = (required ?? []) as string[];
  const typeSchema = (base.type ?? {}) as SchemaObject;
  const enumerated = Array.isArray(typeSchema.enum) ? (typeSchema.enum as unknown[]) : undefined;
  // A type the `type` enum names without a branch of its own has the common fields alone.
  const bare = (enumerated ?? []).filter((type) => !members.some((member) => member.type === type));
  const all = [...members, ...bare.map((type) => ({ type, fields: {} as NonNullable<Branch['then']> }))];
  return {
    ...rest,
    anyOf: all.map(({ type, fields }) => ({
      type: 'object',
      required: [...new Set([...baseRequired, ...(fields.required ?? [])])],
      properties: { ...base, ...(fields.properties ?? {}), type: { const: type } },
    })),
  };
}

/**
 * Renders one declaration per listed definition (named by its key in PascalCase), each dispatch read as a union.
 *
 * @param schema - A dialect schema with `$defs`.
 * @param names - The definitions to declare.
 * @param banner - A comment to put first.
 */
export async function renderDialectTypes(
  schema: SchemaObject,
  names: readonly string[],
  banner: string,
): Promise<string> {
  const defs = structuredClone(schema.$defs) as Record<string, SchemaObject>;
  for (const [name, definition] of Object.entries(defs)) {
    defs[name] = { ...dispatchAsUnion(definition), title: pascalCase(name) };
  }
  const root: SchemaObject = {
    title: 'DialectTypes',
    $defs: defs,
    type: 'object',
    required: [...names],
    properties: Object.fromEntries(names.map((name) => [name, { $ref: `#/$defs/${name}` }])),
  };
  return compile(root as Parameters<typeof compile>[0], 'DialectTypes', {
    bannerComment: banner,
    additionalProperties: false,
    strictIndexSignatures: true,
    unknownAny: true,
    declareExternallyReferenced: true,
  });
}

function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
