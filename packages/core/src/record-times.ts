/**
 * The wall-clock times a log's records carry. Canonical events carry no times, so tools that place events in time
 * (a timeline, traces, a day of usage) read them from the records and look them up by the line an event came from:
 * `timestamp_ms` (the CLI's records and the Python wrapper's), `timestamp` (a WebSocket app's stored records, in
 * milliseconds or ISO 8601), and a tool call's own `startedAtMs` / `completedAtMs` (the CLI from 2026.08, sent as
 * strings of digits).
 */

/** The times one record names, in milliseconds since the epoch; every field absent when the record has none. */
export interface RecordTimes {
  /** When the record was written: `timestamp_ms`, else `timestamp`. */
  timestampMs?: number;
  /** When the tool call the record describes started: its `startedAtMs`. */
  startedAtMs?: number;
  /** When the tool call the record describes completed: its `completedAtMs`. */
  completedAtMs?: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Milliseconds from a number or a string of digits (`"1790758448610"`); else `undefined`. */
function millis(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^\d{1,16}$/.test(value)) return Number(value);
  return undefined;
}

/** The record's own time: `timestamp_ms`, else a numeric or ISO 8601 `timestamp`. */
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

/** The times a record names, or `undefined` when it names none. */
export function recordTimes(record: unknown): RecordTimes | undefined {
  if (!isObject(record)) return undefined;
  const times: RecordTimes = {};
  const timestampMs = writtenAt(record);
  if (timestampMs !== undefined) times.timestampMs = timestampMs;
  const toolCall = toolCallOf(record);
  const startedAtMs = millis(toolCall?.startedAtMs);
  const completedAtMs = millis(toolCall?.completedAtMs);
  if (startedAtMs !== undefined) times.startedAtMs = startedAtMs;
  if (completedAtMs !== undefined) times.completedAtMs = completedAtMs;
  return Object.keys(times).length === 0 ? undefined : times;
}

/**
 * Times of records seen and not yet claimed by their events. Records are observed just before their events are
 * handed on, so entries behind the line being read are dropped: the map holds the records of one read batch at most.
 */
export interface RecordTimeIndex {
  /** Notes the times of the record starting at `line`. */
  observe(line: number, record: unknown): void;
  /** The times of the record at `line` (kept for its other events); older entries are forgotten. */
  at(line: number): RecordTimes | undefined;
}

/** A fresh {@link RecordTimeIndex} for one log. */
export function createRecordTimeIndex(): RecordTimeIndex {
  const byLine = new Map<number, RecordTimes>();
  return {
    observe(line, record) {
      const times = recordTimes(record);
      if (times !== undefined) byLine.set(line, times);
    },
    at(line) {
      for (const seen of byLine.keys()) {
        if (seen >= line) break;
        byLine.delete(seen);
      }
      return byLine.get(line);
    },
  };
}
