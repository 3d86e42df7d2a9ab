/**
 * The facts of one session that the report and the usage totals share: the core reducer's summary (status, model,
 * usage, duration) plus where the session is and when it ran, by its records' clocks.
 */

import {
  type CanonicalEvent,
  createSessionReducer,
  type RecordTimes,
  type SessionReducer,
  type SessionSummary,
} from '@cursor-stream/core/normalize';

/** One session's facts. */
export interface SessionFacts {
  /** The log the session is in. */
  file: string;
  /** Line of the session's first record; `null` when its events have no location. */
  line: number | null;
  /** What the core's session reducer made of the session. */
  summary: SessionSummary;
  /** The earliest and latest time its records carry (ms since the epoch); `null` when they carry none. */
  firstAtMs: number | null;
  lastAtMs: number | null;
}

/** Follows one session's events and gives its {@link SessionFacts} at the end. */
export interface FactsTracker {
  push(event: CanonicalEvent, times: RecordTimes | undefined): void;
  /** The facts; `undefined` only if no event of the session's content was pushed. */
  facts(): SessionFacts | undefined;
}

/** Starts tracking a session of `file`. */
export function trackSessionFacts(file: string): FactsTracker {
  const reducer: SessionReducer = createSessionReducer();
  let line: number | null = null;
  let firstAtMs: number | null = null;
  let lastAtMs: number | null = null;
  function see(ms: number | undefined): void {
    if (ms === undefined) return;
    if (firstAtMs === null || ms < firstAtMs) firstAtMs = ms;
    if (lastAtMs === null || ms > lastAtMs) lastAtMs = ms;
  }
  return {
    push(event, times) {
      reducer.push(event);
      line ??= event.loc?.line ?? null;
      see(times?.timestampMs);
      see(times?.startedAtMs);
      see(times?.completedAtMs);
    },
    facts() {
      const [summary] = reducer.sessions();
      return summary === undefined ? undefined : { file, line, summary, firstAtMs, lastAtMs };
    },
  };
}

/** The UTC calendar day (`2026-08-11`) of a time in ms, or `null` without one. */
export function utcDay(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString().slice(0, 10);
}
