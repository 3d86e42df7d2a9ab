/**
 * The wall-clock times a log's records carry. Canonical events carry no times, so tools that place events in time
 * (a timeline, traces, a day of usage) read them from the records and look them up by the line an event came from:
 * `timestamp_ms` (the CLI's records and the Python wrapper's), `timestamp` (a WebSocket app's stored records, in
 * milliseconds or ISO 8601), `createdAt` (the `@cursor/sdk` store's rows, in milliseconds or ISO 8601), and a tool
 * call's own `startedAtMs` / `completedAtMs` (the CLI from 2026.08, sent as strings of digits).
 *
 * {@link readRecordTime} is the one place a value becomes a time: every tool that turns a record's time into a date
 * takes times from here, so a value no date can hold (`1e300`, `"9999999999999999"`, `-5`) is a problem said once,
 * with the field it was in, and never an exception where the date is made.
 */

import type { CanonicalEvent } from './events/index.ts';

/**
 * The latest time a record may name, in milliseconds since the epoch: 2554-07-21T23:34:33.709Z, the last whole
 * millisecond OTLP's unsigned 64-bit nanoseconds hold. Every JavaScript `Date` (up to 8.64e15 ms) holds it, and so
 * do the 64-bit integer columns of the table exports.
 */
export const MAX_RECORD_TIME_MS = 18_446_744_073_709;

/** Digits of a time sent as a string: 64-bit protobuf integers have at most 20. */
const DIGITS = /^\d{1,20}$/;

/** The start of an ISO 8601 date and time, as `timestamp` holds it. */
const ISO_DATE_TIME = /^\d{4}-\d\d-\d\dT/;

/** Characters of a value quoted in a problem's message. */
const QUOTED_CHARS = 40;

/** Why a record's time field names no time. */
export interface RecordTimeProblem {
  /** The field as the record names it: `timestamp_ms`, `timestamp`, `tool_call.startedAtMs`. */
  readonly field: string;
  /** For a person, with the field and the value (cut when long): `timestamp_ms 1e+300 is after 2554-07-21, ...`. */
  readonly message: string;
}

/** A time read from a record's field: milliseconds since the epoch, or why the value is none. */
export type RecordTime = { ok: true; ms: number } | { ok: false; problem: RecordTimeProblem };

function quoted(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = typeof value;
  }
  return text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS - 1)}…` : text;
}

function problem(field: string, value: unknown, why: string): RecordTime {
  return { ok: false, problem: { field, message: `${field} ${quoted(value)} ${why}` } };
}

/** A number of milliseconds as a time: within 1970-01-01 and {@link MAX_RECORD_TIME_MS}. */
function fromMillis(ms: number, field: string, value: unknown): RecordTime {
  if (Number.isNaN(ms)) return problem(field, value, 'is not a time');
  if (ms < 0) return problem(field, value, 'is before 1970, the earliest time a record may name');
  if (ms > MAX_RECORD_TIME_MS)
    return problem(field, value, 'is after 2554-07-21, the latest time a record may name');
  return { ok: true, ms };
}

/**
 * Reads one time field of a record: milliseconds since the epoch from a number, a string of digits
 * (`"1790758448610"`), or, where `iso` allows, an ISO 8601 date and time. Fractions of a millisecond are kept. A value
 * that is none of these, or names a time before 1970 or after {@link MAX_RECORD_TIME_MS}, is a problem naming the
 * field; never an exception.
 *
 * @param field - The field's name, for the problem's message.
 * @returns The time, or its problem; `undefined` when the field is absent (`undefined` or `null`).
 */
export function readRecordTime(value: unknown, field: string, iso = false): RecordTime | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return fromMillis(value, field, value);
  if (typeof value === 'string') {
    if (DIGITS.test(value)) return fromMillis(Number(value), field, value);
    if (iso && ISO_DATE_TIME.test(value)) {
      const ms = Date.parse(value);
      return Number.isNaN(ms) ? problem(field, value, 'is not a valid date') : fromMillis(ms, field, value);
    }
  }
  return problem(field, value, 'is not a time');
}

/** The times one record names, in milliseconds since the epoch; every field absent when the record has none. */
export interface RecordTimes {
  /** When the record was written: `timestamp_ms`, else `timestamp`, else `createdAt`. */
  timestampMs?: number;
  /** When the tool call the record describes started: its `startedAtMs`. */
  startedAtMs?: number;
  /** When the tool call the record describes completed: its `completedAtMs`. */
  completedAtMs?: number;
  /** The time fields of the record that name no time (left out of the times above); absent when there are none. */
  problems?: readonly RecordTimeProblem[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tool call object of a record, and where the dialects put it. */
function toolCallOf(record: Record<string, unknown>): [Record<string, unknown>, string] | undefined {
  if (isObject(record.tool_call)) return [record.tool_call, 'tool_call'];
  if (isObject(record.data) && isObject(record.data.tool_call))
    return [record.data.tool_call, 'data.tool_call'];
  if (isObject(record.payload) && isObject(record.payload.toolCall))
    return [record.payload.toolCall, 'payload.toolCall'];
  return undefined;
}

/**
 * The times a record names, or `undefined` when it names none and has no time field that names none. The record's
 * own time is `timestamp_ms`, else `timestamp`, else `createdAt`: a field that is no time is a problem, and the next
 * is read in its place.
 */
export function recordTimes(record: unknown): RecordTimes | undefined {
  if (!isObject(record)) return undefined;
  const times: RecordTimes = {};
  const problems: RecordTimeProblem[] = [];
  const take = (time: RecordTime | undefined): number | undefined => {
    if (time === undefined) return undefined;
    if (time.ok) return time.ms;
    problems.push(time.problem);
    return undefined;
  };
  const timestampMs =
    take(readRecordTime(record.timestamp_ms, 'timestamp_ms')) ??
    take(readRecordTime(record.timestamp, 'timestamp', true)) ??
    take(readRecordTime(record.createdAt, 'createdAt', true));
  if (timestampMs !== undefined) times.timestampMs = timestampMs;
  const toolCall = toolCallOf(record);
  if (toolCall !== undefined) {
    const [call, path] = toolCall;
    const startedAtMs = take(readRecordTime(call.startedAtMs, `${path}.startedAtMs`));
    const completedAtMs = take(readRecordTime(call.completedAtMs, `${path}.completedAtMs`));
    if (startedAtMs !== undefined) times.startedAtMs = startedAtMs;
    if (completedAtMs !== undefined) times.completedAtMs = completedAtMs;
  }
  if (problems.length > 0) times.problems = problems;
  return Object.keys(times).length === 0 ? undefined : times;
}

/**
 * Times of records seen and not yet claimed by their events. Records are observed just before their events are
 * handed on, so entries behind the line being read are dropped: the map holds the records of one read batch at most.
 */
export interface RecordTimeIndex {
  /**
   * Notes the times of the record starting at `line`, at byte `offset` (several records may start on one line: a
   * JSON array of records written on one line).
   */
  observe(line: number, record: unknown, offset?: number): void;
  /**
   * The times of the record at `line` and `offset` (kept for its other events); older entries are forgotten. A
   * record's `problems` come with the times given to each of its events: a consumer says them once per line.
   */
  at(line: number, offset?: number): RecordTimes | undefined;
}

/** The times of the records starting on one line: the first one's, and any other's by its offset. */
interface LineTimes {
  /** `undefined` when observed without one: then the line's record, whatever offset is asked. */
  readonly offset: number | undefined;
  readonly times: RecordTimes;
  others?: Map<number, RecordTimes>;
}

/** Events placed at a line whose record is not theirs: a `finish` the next session's start made, at that start. */
const borrowedLines = new WeakSet<CanonicalEvent>();

/**
 * Marks `event` as placed at another record's line (a session's `finish` made where the next session cut it): that
 * record's times are not the event's, and a session with no time of its own must not take the next one's.
 */
export function markBorrowedLine(event: CanonicalEvent): void {
  borrowedLines.add(event);
}

/**
 * The times of the record `event` came from, looked up in `index`; none for an event without a location or placed at
 * another record's line (see {@link markBorrowedLine}).
 */
export function eventTimes(index: RecordTimeIndex, event: CanonicalEvent): RecordTimes | undefined {
  return event.loc === undefined || borrowedLines.has(event)
    ? undefined
    : index.at(event.loc.line, event.loc.offset);
}

/** A fresh {@link RecordTimeIndex} for one log. */
export function createRecordTimeIndex(): RecordTimeIndex {
  const byLine = new Map<number, LineTimes>();
  return {
    observe(line, record, offset) {
      const times = recordTimes(record);
      const first = byLine.get(line);
      if (first === undefined || first.offset === offset) {
        if (times !== undefined) {
          const entry: LineTimes = { offset, times };
          // Observed again, the line's first record keeps the times of the others on its line.
          if (first?.others !== undefined) entry.others = first.others;
          byLine.set(line, entry);
        }
        // The same record observed again, now without times, leaves none behind.
        else if (first !== undefined) byLine.delete(line);
      } else if (times !== undefined && offset !== undefined) {
        first.others ??= new Map();
        first.others.set(offset, times);
      }
    },
    at(line, offset) {
      for (const seen of byLine.keys()) {
        if (seen >= line) break;
        byLine.delete(seen);
      }
      const entry = byLine.get(line);
      if (entry === undefined) return undefined;
      if (entry.offset === undefined || offset === undefined || entry.offset === offset) return entry.times;
      return entry.others?.get(offset);
    },
  };
}
