/**
 * Input schemas for tools the agent runs itself: a Standard Schema (standardschema.dev) of an object, with a JSON
 * Schema describing its fields. Cursor owns these tools and their arguments change between releases, so the fields
 * are described and not enforced: any object is valid. Nothing here needs a schema library.
 */

/** A field's JSON Schema. */
export type JsonSchemaField = Readonly<Record<string, unknown>> & { type?: string; description?: string };

/** The Standard Schema and Standard JSON Schema interfaces (v1), as far as a tool's input schema uses them. */
export interface DescribedObjectSchema<Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'cursor-stream';
    readonly validate: (
      value: unknown,
    ) => { readonly value: Input } | { readonly issues: ReadonlyArray<{ readonly message: string }> };
    readonly jsonSchema: {
      readonly input: (options?: unknown) => Record<string, unknown>;
      readonly output: (options?: unknown) => Record<string, unknown>;
    };
    readonly types?: { readonly input: Input; readonly output: Input };
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The schema of an object whose `properties` are described (none required, others allowed). `Input` is the type
 * the object is declared as, for the AI SDK's typing of tool calls.
 */
export function describedObject<Input>(
  properties: Readonly<Record<string, JsonSchemaField>>,
): DescribedObjectSchema<Input> {
  const schema = () => ({ type: 'object', properties: { ...properties }, additionalProperties: true });
  return {
    '~standard': {
      version: 1,
      vendor: 'cursor-stream',
      validate: (value) =>
        isPlainObject(value) ? { value: value as Input } : { issues: [{ message: 'Expected an object.' }] },
      jsonSchema: { input: schema, output: schema },
    },
  };
}
