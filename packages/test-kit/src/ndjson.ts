/** Writing records as a log does, and reading them back. */

/** Records as NDJSON text: each one's JSON on a line of its own, every line ended. */
export function ndjson(records: readonly unknown[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}

/**
 * A whole session of the CLI's, as NDJSON: its `system/init` and its `result`, which reports `usage` as given (the
 * counts may be any JSON, for tests of what is made of counts that are none).
 */
export function sessionWithUsage(sessionId: string, usage: Record<string, unknown>): string {
  return ndjson([
    {
      type: 'system',
      subtype: 'init',
      apiKeySource: 'login',
      cwd: '/w',
      session_id: sessionId,
      model: 'Auto',
      permissionMode: 'default',
    },
    {
      type: 'result',
      subtype: 'success',
      duration_ms: 5,
      duration_api_ms: 5,
      is_error: false,
      result: '',
      session_id: sessionId,
      request_id: 'r',
      usage,
    },
  ]);
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
