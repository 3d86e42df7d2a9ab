/**
 * Derives the record shapes the readers of `src/record-readers/` accept from a dialect's JSON Schema: for a record of
 * a given `type` (and `subtype`), every field the schema names for it, with the kind its keywords allow, and which
 * fields are required. The schema's branches on `type` and `subtype` are settled by the constants the shape is for;
 * an `if` on another field becomes a conditional requirement.
 *
 * Only what a reader checks exactly is turned into a shape: `type` (`string`, `integer`, `object`, `array`),
 * `minLength` up to 1, `minimum: 0`, `properties`, `required`, `items`, `allOf`, `$ref` and `if`/`then`/`else`.
 * Anything else (a `pattern`, a `oneOf`, an `enum`) throws, so a schema change that a reader could not honour stops
 * the build instead of letting the reader accept what the schema refuses.
 */

import type { ObjectShape, RecordShape, ValueShape } from '../src/record-readers/record-shape.ts';
import type { SchemaObject } from './strict-schema.ts';

/** The constants a shape is derived for: `type`, and `subtype` when the shape is for one subtype only. */
type Constants = Readonly<Record<string, string>>;

/** Keywords that say nothing about what a value may be. */
const ANNOTATIONS = new Set(['description', 'title', '$comment', '$schema', '$id', '$defs', 'examples']);

interface ObjectParts {
  fields: Map<string, SchemaObject[]>;
  required: Set<string>;
  requiredWhen: { field: string; equals: string; whenAbsent: boolean; required: string[] }[];
}

/** The shape of the records of `type` (and `subtype`) that `schema` accepts. */
export function deriveRecordShape(schema: SchemaObject, type: string, subtype?: string): RecordShape {
  const constants: Constants = subtype === undefined ? { type } : { type, subtype };
  const where = subtype === undefined ? type : `${type}/${subtype}`;
  const shape = new ShapeDeriver(schema, where).objectShape([schema], constants);
  return subtype === undefined ? { type, shape } : { type, subtype, shape };
}

class ShapeDeriver {
  readonly #defs: SchemaObject;
  readonly #where: string;

  constructor(schema: SchemaObject, where: string) {
    this.#defs = isSchemaObject(schema.$defs) ? schema.$defs : {};
    this.#where = where;
  }

  objectShape(nodes: readonly SchemaObject[], constants: Constants): ObjectShape {
    const parts: ObjectParts = { fields: new Map(), required: new Set(), requiredWhen: [] };
    for (const node of nodes) this.#collect(parts, node, constants);
    const fields: Record<string, ValueShape> = {};
    for (const [name, schemas] of parts.fields)
      fields[name] = this.#valueShape(schemas, constants[name], name);
    for (const name of parts.required) {
      if (!(name in fields)) this.#fail(`required field "${name}" is named by no \`properties\``);
    }
    for (const condition of parts.requiredWhen) {
      for (const name of condition.required) {
        if (!(name in fields))
          this.#fail(`field "${name}" required by a condition is named by no \`properties\``);
      }
    }
    return { fields, required: [...parts.required], requiredWhen: parts.requiredWhen };
  }

  /** Gathers what `node` and the subschemas it applies in place say about one object. */
  #collect(parts: ObjectParts, node: SchemaObject, constants: Constants): void {
    for (const [keyword, value] of Object.entries(node)) {
      if (ANNOTATIONS.has(keyword) || keyword === 'then' || keyword === 'else') continue;
      switch (keyword) {
        case 'type':
          if (value !== 'object') this.#fail(`an object's \`type\` is ${JSON.stringify(value)}`);
          break;
        case '$ref':
          this.#collect(parts, this.#resolve(value), constants);
          break;
        case 'properties':
          for (const [name, schema] of Object.entries(asSchema(value, keyword))) {
            const list = parts.fields.get(name) ?? [];
            list.push(asSchema(schema, name));
            parts.fields.set(name, list);
          }
          break;
        case 'required':
          for (const name of asStrings(value)) parts.required.add(name);
          break;
        case 'allOf':
          for (const schema of asArray(value)) this.#collect(parts, asSchema(schema, keyword), constants);
          break;
        case 'if':
          this.#collectConditional(parts, node, constants);
          break;
        default:
          this.#fail(`keyword \`${keyword}\` on an object is not one a reader checks`);
      }
    }
  }

  /** An `if`/`then`/`else`: settled by the constants, or a requirement that depends on a field's value. */
  #collectConditional(parts: ObjectParts, node: SchemaObject, constants: Constants): void {
    const condition = asSchema(node.if, 'if');
    const tested = this.#testedField(condition);
    const known = constants[tested.field];
    if (known !== undefined) {
      const branch = known === tested.equals ? node.then : node.else;
      if (branch !== undefined) this.#collect(parts, asSchema(branch, 'then'), constants);
      return;
    }
    if (node.else !== undefined) this.#fail('an `else` on a field that is not a constant');
    const then = asSchema(node.then, 'then');
    for (const keyword of Object.keys(then)) {
      if (keyword !== 'type' && keyword !== 'required' && !ANNOTATIONS.has(keyword))
        this.#fail(`a \`then\` on field "${tested.field}" holds \`${keyword}\``);
    }
    const required = asStrings(then.required ?? []);
    parts.requiredWhen.push({
      field: tested.field,
      equals: tested.equals,
      whenAbsent: !tested.required,
      required,
    });
  }

  /** The one field an `if` tests for one string, and whether it also requires it. */
  #testedField(condition: SchemaObject): { field: string; equals: string; required: boolean } {
    const properties = Object.entries(asSchema(condition.properties, 'if.properties'));
    const only = properties[0];
    if (properties.length !== 1 || only === undefined) this.#fail('an `if` that tests other than one field');
    const [field, test] = only;
    const equals = asSchema(test, field).const;
    if (typeof equals !== 'string' || Object.keys(asSchema(test, field)).length !== 1)
      this.#fail(`an \`if\` on field "${field}" that is not one \`const\` string`);
    for (const keyword of Object.keys(condition)) {
      if (keyword !== 'type' && keyword !== 'required' && keyword !== 'properties')
        this.#fail(`an \`if\` with \`${keyword}\``);
    }
    const required = asStrings(condition.required ?? []);
    if (required.some((name) => name !== field)) this.#fail('an `if` requiring another field than it tests');
    return { field, equals, required: required.includes(field) };
  }

  #valueShape(nodes: readonly SchemaObject[], constant: string | undefined, name: string): ValueShape {
    const flat = nodes.flatMap((node) => this.#inPlace(node));
    const types = new Set(flat.map((node) => node.type).filter((type) => type !== undefined));
    const type = types.size === 1 ? [...types][0] : undefined;
    if (type === undefined)
      this.#fail(`field "${name}" has ${types.size === 0 ? 'no' : 'more than one'} \`type\``);
    const keywords = new Set(flat.flatMap((node) => Object.keys(node)).filter((kw) => !ANNOTATIONS.has(kw)));
    const allow = (...allowed: string[]) => {
      for (const keyword of keywords) {
        if (keyword !== 'type' && !allowed.includes(keyword))
          this.#fail(`field "${name}" has \`${keyword}\`, which a reader does not check`);
      }
    };
    const minLength = Math.max(
      0,
      ...flat.map((node) => (typeof node.minLength === 'number' ? node.minLength : 0)),
    );
    switch (type) {
      case 'string':
        allow('minLength', 'const');
        if (minLength > 1) this.#fail(`field "${name}" has \`minLength\` ${minLength}`);
        if (constant !== undefined) {
          if (flat.some((node) => node.const !== undefined && node.const !== constant))
            this.#fail(`field "${name}" cannot hold "${constant}"`);
          if (constant.length < minLength) this.#fail(`field "${name}" is too short for "${constant}"`);
          return { kind: 'const', value: constant };
        }
        if (keywords.has('const')) this.#fail(`field "${name}" has \`const\``);
        return { kind: 'string', nonEmpty: minLength === 1 };
      case 'integer':
        allow('minimum');
        if (!flat.some((node) => node.minimum === 0) || flat.some((node) => (node.minimum ?? 0) !== 0))
          this.#fail(`field "${name}" is an integer without \`minimum: 0\``);
        return { kind: 'whole-number' };
      case 'object':
        return { kind: 'object', shape: this.objectShape(flat, {}) };
      case 'array': {
        allow('items');
        const items = flat.map((node) => node.items).filter((items) => items !== undefined);
        if (items.length === 0) this.#fail(`array field "${name}" has no \`items\``);
        return {
          kind: 'array',
          items: this.#valueShape(
            items.map((item) => asSchema(item, name)),
            undefined,
            name,
          ),
        };
      }
      default:
        this.#fail(`field "${name}" is of type ${JSON.stringify(type)}`);
    }
  }

  /** `node` and what it applies in place through `$ref` and `allOf`, flattened (for a field's scalar keywords). */
  #inPlace(node: SchemaObject): SchemaObject[] {
    const own: SchemaObject = {};
    const nested: SchemaObject[] = [];
    for (const [keyword, value] of Object.entries(node)) {
      if (keyword === '$ref') nested.push(...this.#inPlace(this.#resolve(value)));
      else if (keyword === 'allOf')
        for (const item of asArray(value)) nested.push(...this.#inPlace(asSchema(item, keyword)));
      else own[keyword] = value;
    }
    return [own, ...nested];
  }

  #resolve(ref: unknown): SchemaObject {
    const match = typeof ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(ref) : null;
    const target = match?.[1] === undefined ? undefined : this.#defs[match[1]];
    if (!isSchemaObject(target)) this.#fail(`\`$ref\` ${JSON.stringify(ref)} points at no definition`);
    return target;
  }

  #fail(message: string): never {
    throw new Error(`record shape ${this.#where}: ${message}`);
  }
}

function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asSchema(value: unknown, where: string): SchemaObject {
  if (!isSchemaObject(value)) throw new Error(`record shape: ${where} is not a schema object`);
  return value;
}

function asArray(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Error('record shape: expected an array of schemas');
  return value;
}

function asStrings(value: unknown): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw new Error('record shape: `required` is not a list of names');
  return value as string[];
}

/** The records whose shapes a dialect's reader takes: most of a stream's records, and most of its small ones. */
export const READ_RECORDS: Readonly<Record<string, readonly (readonly [string, string?])[]>> = {
  official: [['thinking', 'delta'], ['thinking', 'completed'], ['assistant']],
};

/** The text of the module exporting a dialect's record shapes as `<NAME>_RECORD_SHAPES`. */
export function renderRecordShapes(schema: SchemaObject, dialect: string, banner: string): string {
  const shapes = (READ_RECORDS[dialect] ?? []).map(([type, subtype]) =>
    deriveRecordShape(schema, type, subtype),
  );
  const name = `${dialect.toUpperCase().replaceAll('-', '_')}_RECORD_SHAPES`;
  return [
    banner,
    "import type { RecordShape } from '../record-readers/record-shape.ts';",
    '',
    `/** The records of the ${dialect} dialect its reader takes, as its schema describes them. */`,
    `export const ${name}: readonly RecordShape[] = ${JSON.stringify(shapes, null, 2)};`,
    '',
  ].join('\n');
}
