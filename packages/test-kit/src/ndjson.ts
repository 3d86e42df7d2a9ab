/** Writing records as a log does, and reading them back. */

/** Records as NDJSON text: each one's JSON on a line of its own, every line ended. */
export function ndjson(records: readonly unknown[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}

/** The texts that parse as JSON objects, parsed, in order; any other text (an array, a fragment, noise) is left out. */
export function parsedObjects(texts: Iterable<string>): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = [];
  for (const text of texts) {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        objects.push(value as Record<string, unknown>);
    } catch {
      // Not JSON: left out.
    }
  }
  return objects;
}
