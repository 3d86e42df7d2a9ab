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
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return {
    ok: true,
    value: {
      timeZone: format.resolvedOptions().timeZone,
      wallTime(ms) {
        const parts: Record<string, string> = {};
        for (const part of format.formatToParts(ms)) parts[part.type] = part.value;
        const year = Number(parts.year);
        return `${pad(year, 4)}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${pad(ms % 1000, 3)}`;
      },
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
