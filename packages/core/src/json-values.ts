/**
 * Small readers for parsed JSON. Records come from `JSON.parse`, so a field may hold any JSON value; these keep the
 * dialects' type guards short and the same everywhere.
 */

import type { JsonObject } from './dialect.ts';

/** Whether `value` is a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` if it is a string, else `undefined`. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `value` if it is a finite number, else `undefined`. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * `value` if it is a finite number of zero or more, else `undefined`: durations and token counts, where a negative
 * number is a producer's bug, not a measurement.
 */
export function asCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** `value` if it is a JSON object, else `undefined`. */
export function asObject(value: unknown): JsonObject | undefined {
  return isJsonObject(value) ? value : undefined;
}

/**
 * A number, or a string of decimal digits read as one: the CLI sends `startedAtMs` and `completedAtMs` as strings
 * (`"1790758448610"`), since they come from 64-bit protobuf fields.
 */
export function asNumberLike(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 20) return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/**
 * Copies the defined entries of `fields` into `target`. Optional event fields are left out rather than set to
 * `undefined`, which `exactOptionalPropertyTypes` and JSON output both want.
 */
export function assignDefined<T extends object>(target: T, fields: { [K in keyof T]?: T[K] | undefined }): T {
  for (const key in fields) {
    const value = fields[key];
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
  return target;
}

/**
 * The value `table` holds under `key` as its own, else `undefined`. Keys come from logs and may be any string: a
 * plain lookup of `toString`, `constructor` or `__proto__` finds what every object inherits.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Sets `target[key]` as its own field, `__proto__` too (a plain assignment of it would set the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
