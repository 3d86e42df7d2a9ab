/** Writing records as a log does. */

/** Records as NDJSON text: each one's JSON on a line of its own, every line ended. */
export function ndjson(records: readonly unknown[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}
