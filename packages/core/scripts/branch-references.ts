/**
 * Copies the definitions an `anyOf` or `oneOf` branch refers to into the branch, before a schema is compiled. ajv
 * names an error by the path of the schema that reported it, and a referenced definition reports under its own
 * (`#/$defs/textBlock/...`), never under the branch that referred to it (`.../anyOf/0/...`): the issues then cannot
 * tell which branch an error belongs to, and list every branch's errors where the branch the value meant says
 * what is wrong (see `toSchemaIssues`). Copied in, the branch's errors carry its path.
 */

import type { SchemaObject } from './strict-schema.ts';

const DEFINITION = /^#\/\$defs\/([^/]+)$/;

/**
 * `schema` with every `$ref` to one of its `$defs` inside an `anyOf` or `oneOf` replaced by a copy of the definition,
 * itself with the references inside it copied in. A reference that would copy a definition into itself (a recursive
 * schema) stays a reference. The schema given is not changed.
 */
export function copyBranchReferences(schema: SchemaObject): SchemaObject {
  const definitions = (schema.$defs ?? {}) as Record<string, unknown>;
  const copy = (value: unknown, inBranch: boolean, open: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((item) => copy(item, inBranch, open));
    if (typeof value !== 'object' || value === null) return value;
    const object = value as SchemaObject;
    const name = typeof object.$ref === 'string' ? DEFINITION.exec(object.$ref)?.[1] : undefined;
    if (inBranch && name !== undefined && Object.hasOwn(definitions, name) && !open.includes(name)) {
      const { $ref: _ref, ...siblings } = object;
      const definition = copy(definitions[name], true, [...open, name]) as SchemaObject;
      if (Object.keys(siblings).length === 0) return definition;
      // Keywords beside a reference apply with it, and `unevaluated*` among them sees what it evaluates: they stay
      // where they are, and the definition joins them under `allOf`, which they see the same way.
      const kept = copy(siblings, true, open) as SchemaObject;
      return { ...kept, allOf: [...((kept.allOf as unknown[] | undefined) ?? []), definition] };
    }
    return Object.fromEntries(
      Object.entries(object).map(([key, item]) => [
        key,
        copy(item, inBranch || key === 'anyOf' || key === 'oneOf', open),
      ]),
    );
  };
  return copy(schema, false, []) as SchemaObject;
}
