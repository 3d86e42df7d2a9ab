/**
 * JSON text of a value that never throws: `JSON.stringify` recurses, and a record nested deeply enough (or holding a
 * cycle, for values built elsewhere) would end the export with a stack overflow.
 */

/** The JSON text of `value`, or of `{ "unserializable": why }` when it cannot be written. */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    return JSON.stringify({ unserializable: error instanceof Error ? error.message : String(error) });
  }
}
