/**
 * The clock `usage` reads sessions by: a time zone (the machine's by default, as ccusage does), a session's wall time
 * in it, the day, week or month it falls in, and the `--since`/`--until` bounds a person writes in that zone.
 *
 * Wall times are compared as text (`2026-05-01T09:30:00.000`), so a bound means what it says in the zone, DST or not,
 * with no conversion back to instants. Only `Intl`, so it runs in browsers too.
 */

/** Why a time zone or a bound was not read. */
export interface UsageTimeError {
  /** `invalid-time-zone`: not an IANA zone the runtime knows; `invalid-time`: a bound that is no date or time. */
  code: 'invalid-time-zone' | 'invalid-time';
  message: string;
}

/** A value, or why it was not read. */
export type UsageTimeResult<T> = { ok: true; value: T } | { ok: false; error: UsageTimeError };

/** The zone of the machine (or browser) running: what `usage` reads times in unless told. */
export function localTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A session's time as wall times of one zone. */
export interface WallClock {
  /** The zone's canonical name (`Europe/Paris`, `UTC`). */
  readonly timeZone: string;
  /** `2026-05-01T09:30:00.000` in the zone. */
  wallTime(ms: number): string;
}

/** A clock for `timeZone` (an IANA name such as `Europe/Paris`, or `UTC`), or why it is no zone. Never throws. */
export function createWallClock(timeZone: string): UsageTimeResult<WallClock> {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    const shown = timeZone.length > 60 ? `${timeZone.slice(0, 60)}…` : timeZone;
    return {
      ok: false,
      error: {
        code: 'invalid-time-zone',
        message: `${JSON.stringify(shown)} is not a time zone (an IANA name such as Europe/Paris, or UTC)`,
      },
    };
  }
  return { ok: true, value: cachedClock(format) };
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The wall time of `ms` as the format reads it: exact, and the reference of the cached clock. */
function formattedWallTime(format: Intl.DateTimeFormat, ms: number): string {
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(ms)) parts[part.type] = part.value;
  const year = Number(parts.year);
  return `${pad(year, 4)}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${pad(ms % 1000, 3)}`;
}

/** How far the zone's wall clock is ahead of UTC at the whole second `second`, in milliseconds. */
function offsetAt(format: Intl.DateTimeFormat, second: number): number {
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(second)) parts[part.type] = part.value;
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - second;
}

const HOUR_MS = 3_600_000;

/**
 * Instants the offset cache takes: from 1970 to well inside the year 9999, where a wall time is a four-digit year
 * whichever the zone and the proleptic Gregorian calendar reads it as `Date` does; any other goes the exact way.
 */
const CACHED_FROM_MS = 0;
const CACHED_UNTIL_MS = Date.UTC(9999, 11, 1);

/** UTC hours whose offset is kept; past it the cache starts again, so that memory stays bounded. */
const MAX_CACHED_HOURS = 4096;

/** An hour that holds a change of offset: its instants go the exact way. */
const CHANGES = Number.NaN;

/**
 * A clock that reads each UTC hour's offset once: formatting every session's instant is most of `usage`'s time on
 * a folder of small logs. An hour whose offset is the same at its first and last second holds no change of it
 * (zones change offset at most once within an hour), so that offset, whole seconds as the zone database's are,
 * gives the wall time of any instant of the hour by arithmetic; an hour with a change is formatted exactly.
 */
function cachedClock(format: Intl.DateTimeFormat): WallClock {
  const offsets = new Map<number, number>();
  function offsetOfHour(hour: number): number {
    let offset = offsets.get(hour);
    if (offset === undefined) {
      const start = hour * HOUR_MS;
      const first = offsetAt(format, start);
      offset = first === offsetAt(format, start + HOUR_MS - 1000) ? first : CHANGES;
      if (offsets.size >= MAX_CACHED_HOURS) offsets.clear();
      offsets.set(hour, offset);
    }
    return offset;
  }
  return {
    timeZone: format.resolvedOptions().timeZone,
    wallTime(ms) {
      if (!Number.isInteger(ms) || ms < CACHED_FROM_MS || ms >= CACHED_UNTIL_MS)
        return formattedWallTime(format, ms);
      const offset = offsetOfHour(Math.floor(ms / HOUR_MS));
      if (Number.isNaN(offset)) return formattedWallTime(format, ms);
      return new Date(ms + offset).toISOString().slice(0, 23);
    },
  };
}

/** The day (`2026-05-01`) of a wall time. */
export function dayOf(wallTime: string): string {
  return wallTime.slice(0, 10);
}

/** The month (`2026-05`) of a wall time. */
export function monthOf(wallTime: string): string {
  return wallTime.slice(0, 7);
}

/** The Monday (`2026-04-27`) that starts the ISO week of a wall time. */
export function weekOf(wallTime: string): string {
  const date = new Date(`${dayOf(wallTime)}T00:00:00Z`);
  const sinceMonday = (date.getUTCDay() + 6) % 7;
  date.setUTCDate(date.getUTCDate() - sinceMonday);
  return date.toISOString().slice(0, 10);
}

const BOUND = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A `--since`/`--until` bound as a wall time to compare with: `2026-05-01`, `20260501` or `2026-05-01T09:30[:15]`
 * (a space for the `T` too). A date alone starts its day for `since` and ends it for `until`, so both are inclusive.
 */
export function parseTimeBound(text: string, side: 'since' | 'until'): UsageTimeResult<string> {
  const match = BOUND.exec(text.trim());
  const invalid: UsageTimeResult<string> = {
    ok: false,
    error: {
      code: 'invalid-time',
      message: `--${side} ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)} is not a date (2026-05-01 or 20260501) or a time (2026-05-01T09:30)`,
    },
  };
  if (match === null) return invalid;
  const [, year = '', month = '', day = '', hour, minute, second] = match;
  const monthNumber = Number(month);
  if (monthNumber < 1 || monthNumber > 12) return invalid;
  if (Number(day) < 1 || Number(day) > daysIn(Number(year), monthNumber)) return invalid;
  if (hour !== undefined && (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59))
    return invalid;
  const date = `${year}-${month}-${day}`;
  if (hour === undefined)
    return { ok: true, value: `${date}T${side === 'since' ? '00:00:00.000' : '23:59:59.999'}` };
  const seconds = second ?? (side === 'since' ? '00' : '59');
  return { ok: true, value: `${date}T${hour}:${minute}:${seconds}.${side === 'since' ? '000' : '999'}` };
}
