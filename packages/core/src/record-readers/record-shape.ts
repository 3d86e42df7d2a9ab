/**
 * The shapes of the records a dialect reads without `JSON.parse`: for the records that make most of a stream (a
 * `thinking` delta, an `assistant` message), which fields they may have, of which kind, and which are required. They
 * are not written by hand: the build derives them from the dialect's JSON Schema (`scripts/record-shapes.ts`), so a
 * record a shape accepts is one the schema accepts, strict or open, and a change to the schema changes the shape.
 */

/** What one field may hold. */
export type ValueShape =
  /** The one string the shape is for (the record's `type` and `subtype`). */
  | { readonly kind: 'const'; readonly value: string }
  /** Any string; `nonEmpty` when the schema wants at least one character. */
  | { readonly kind: 'string'; readonly nonEmpty: boolean }
  /** An integer of zero or more (the schema's `integer` with `minimum: 0`). */
  | { readonly kind: 'whole-number' }
  | { readonly kind: 'object'; readonly shape: ObjectShape }
  | { readonly kind: 'array'; readonly items: ValueShape };

/** A field required only when another field holds a given string (the schema's `if`/`then`). */
export interface ConditionalRequirement {
  readonly field: string;
  readonly equals: string;
  /** Whether the condition holds when `field` is absent too, as an `if` that does not require it does. */
  readonly whenAbsent: boolean;
  readonly required: readonly string[];
}

/** An object's fields: every field the schema names at that place, and no other. */
export interface ObjectShape {
  readonly fields: Readonly<Record<string, ValueShape>>;
  readonly required: readonly string[];
  readonly requiredWhen: readonly ConditionalRequirement[];
}

/**
 * The records of one `type` and `subtype`. Without a `subtype`, the shape is for every record of the type, and
 * `subtype` is a field like the others.
 */
export interface RecordShape {
  readonly type: string;
  readonly subtype?: string;
  /** The whole record, `type` and `subtype` included as constants. */
  readonly shape: ObjectShape;
}
