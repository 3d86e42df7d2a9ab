/**
 * The wall-clock times a log's records carry: `timestamp_ms` on most records of recent CLIs, and a tool call's own
 * `startedAtMs` / `completedAtMs` (sent as strings of digits). Canonical events carry no times, so they are read from
 * the records and looked up by the line an event came from.
 */

/** The times one record names; every field absent when the record has none. */
export interface RecordTimes {
  /** `timestamp_ms`. */
  timestampMs?: number;
  /** `tool_call.startedAtMs`. */
  startedAtMs?: number;
  /** `tool_call.completedAtMs`. */
  completedAtMs?: number;
}

function millis(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^\d{1,16}$/.test(value)) return Number(value);
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The times a record names, or `undefined` when it names none. */
export function recordTimes(record: unknown): RecordTimes | undefined {
  if (!isObject(record)) return undefined;
  const times: RecordTimes = {};
  const timestampMs = millis(record.timestamp_ms);
  if (timestampMs !== undefined) times.timestampMs = timestampMs;
  const toolCall = record.tool_call;
  if (isObject(toolCall)) {
    const startedAtMs = millis(toolCall.startedAtMs);
    const completedAtMs = millis(toolCall.completedAtMs);
    if (startedAtMs !== undefined) times.startedAtMs = startedAtMs;
    if (completedAtMs !== undefined) times.completedAtMs = completedAtMs;
  }
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
