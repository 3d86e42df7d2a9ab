/**
 * JSON text of a value that never throws, through the core's depth-safe writer: a value nested too deep to write, or
 * built elsewhere with a cycle, is written as a note instead of ending the export.
 */

import { safeJsonStringify } from '@cursor-stream/core/normalize';

/** The JSON text of `value`, or of `{ "unserializable": why }` when it cannot be written. */
export function jsonText(value: unknown): string {
  const written = safeJsonStringify(value);
  return written.ok ? written.text : JSON.stringify({ unserializable: written.message });
}
