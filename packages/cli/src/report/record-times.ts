/**
 * The clock readings a raw record carries. Canonical events have no timestamps, so the report's timeline and the
 * usage day come from the records themselves: `timestamp_ms` (the CLI's and the Python wrapper's), `timestamp`
 * (a WebSocket app's stored records), and the tool call's own `startedAtMs`/`completedAtMs` (the CLI from 2026.08,
 * written as strings).
 */

/** When a record says things happened, in milliseconds since the epoch; each field only when the record has it. */
export interface RecordTimes {
  /** When the record was written. */
  atMs?: number;
  /** When the tool call the record describes started. */
  startedAtMs?: number;
  /** When the tool call the record describes completed. */
  completedAtMs?: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A positive millisecond count from a number or a string of digits (`"1790758448610"`); else `undefined`. */
function millis(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number > 0 ? number : undefined;
}

/** The record's own time: `timestamp_ms`, else a numeric or ISO `timestamp`. */
function writtenAt(record: Record<string, unknown>): number | undefined {
  const stamp = millis(record.timestamp_ms);
  if (stamp !== undefined) return stamp;
  const { timestamp } = record;
  if (typeof timestamp === 'string' && /^\d{4}-\d\d-\d\dT/.test(timestamp))
    return millis(Date.parse(timestamp));
  return millis(timestamp);
}

/** The tool call object of a record, where the dialects put it. */
function toolCallOf(record: Record<string, unknown>): Record<string, unknown> | undefined {
  if (isObject(record.tool_call)) return record.tool_call;
  if (isObject(record.data) && isObject(record.data.tool_call)) return record.data.tool_call;
  if (isObject(record.payload) && isObject(record.payload.toolCall)) return record.payload.toolCall;
  return undefined;
}

/** The times a record carries, or `undefined` when it carries none. */
export function recordTimes(value: unknown): RecordTimes | undefined {
  if (!isObject(value)) return undefined;
  const times: RecordTimes = {};
  const atMs = writtenAt(value);
  if (atMs !== undefined) times.atMs = atMs;
  const call = toolCallOf(value);
  const startedAtMs = millis(call?.startedAtMs);
  const completedAtMs = millis(call?.completedAtMs);
  if (startedAtMs !== undefined) times.startedAtMs = startedAtMs;
  if (completedAtMs !== undefined) times.completedAtMs = completedAtMs;
  return atMs === undefined && startedAtMs === undefined && completedAtMs === undefined ? undefined : times;
}
