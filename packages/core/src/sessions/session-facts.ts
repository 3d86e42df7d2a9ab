/**
 * The facts of one session that a report and usage totals share: the session reducer's summary (status, model,
 * usage, duration) plus where the session is and when it ran, by its records' clocks. Values no total or date can
 * take (a time past any date, a token count of `1e308` or `1.5`) are left out here, once for both, each a located
 * problem of the session.
 */

import type { CanonicalEvent } from '../events/index.ts';
import type { RecordTimes } from '../record-times.ts';
import { checkUsage } from '../token-counts.ts';
import { type BoundedSession, createBoundedSessions, MAX_TOOL_CALLS_LISTED } from './bounded-sessions.ts';
import type { SessionSummary } from './session-reducer.ts';

/** A value of the log left out of a session's facts, and where it is. */
export interface ValueProblem {
  /** The line of the record that holds it; `null` when its event has no location. */
  line: number | null;
  /** For a person: the field, the value and why it was left out. */
  message: string;
}

/** The most problems one session keeps listed; the rest are counted. */
export const MAX_PROBLEMS_PER_SESSION = 20;

/** One session's facts. */
export interface SessionFacts {
  /** The log the session is in. */
  file: string;
  /** Line of the session's first record; `null` when its events have no location. */
  line: number | null;
  /**
   * What the session reducer made of the session, its usage holding token counts only; its `toolCalls` list the
   * first calls (see {@link SessionFactsOptions.maxToolCalls}).
   */
  summary: SessionSummary;
  /** Tool calls past those listed in `summary.toolCalls`, counted by their starts. */
  toolCallsOmitted: number;
  /**
   * Those of them that did not succeed, counted by their completions (see `BoundedSession.failedCallsOmitted`: a failed
   * completion said twice counts twice).
   */
  failedCallsOmitted: number;
  /** The earliest and latest time its records carry (ms since the epoch); `null` when they carry none. */
  firstAtMs: number | null;
  lastAtMs: number | null;
  /** Values left out: record times that are no time, token counts that are no count. */
  problems: ValueProblem[];
  /** Problems past {@link MAX_PROBLEMS_PER_SESSION}, counted. */
  problemsOmitted: number;
}

/** Follows one session's events and gives its {@link SessionFacts} at the end. */
export interface FactsTracker {
  push(event: CanonicalEvent, times: RecordTimes | undefined): void;
  /** The facts; `undefined` only if no event of the session's content was pushed. */
  facts(): SessionFacts | undefined;
}

/** Options of {@link trackSessionFacts}. */
export interface SessionFactsOptions {
  /**
   * Tool calls listed in the summary; the others are only counted (in `counts`, `toolCallsOmitted` and
   * `failedCallsOmitted`), so that a session's facts take bounded memory however many calls it makes.
   * {@link MAX_TOOL_CALLS_LISTED} by default; a reader that needs none (usage) says 0.
   */
  maxToolCalls?: number;
}

/** Starts tracking a session of `file`. */
export function trackSessionFacts(file: string, options: SessionFactsOptions = {}): FactsTracker {
  let bounded: BoundedSession | undefined;
  let ended = false;
  const maxToolCalls = options.maxToolCalls ?? MAX_TOOL_CALLS_LISTED;
  const sessions = createBoundedSessions({ maxToolCalls }, (session) => {
    bounded ??= session;
  });
  let line: number | null = null;
  let firstAtMs: number | null = null;
  let lastAtMs: number | null = null;
  let finishLine: number | null = null;
  // A record's times come with each of its events; its problems are said once.
  let problemLine: number | null = null;
  const problems: ValueProblem[] = [];
  let problemsOmitted = 0;
  function problem(at: number | null, message: string): void {
    if (problems.length < MAX_PROBLEMS_PER_SESSION) problems.push({ line: at, message });
    else problemsOmitted += 1;
  }
  function see(ms: number | undefined): void {
    if (ms === undefined) return;
    if (firstAtMs === null || ms < firstAtMs) firstAtMs = ms;
    if (lastAtMs === null || ms > lastAtMs) lastAtMs = ms;
  }
  return {
    push(event, times) {
      sessions.push(event);
      const at = event.loc?.line ?? null;
      line ??= at;
      if (event.type === 'finish') finishLine = at;
      if (times?.problems !== undefined && (at === null || at !== problemLine)) {
        problemLine = at;
        for (const { message } of times.problems) problem(at, message);
      }
      see(times?.timestampMs);
      see(times?.startedAtMs);
      see(times?.completedAtMs);
    },
    facts() {
      if (!ended) sessions.end();
      ended = true;
      if (bounded === undefined) return undefined;
      const { summary: reduced, toolCallsOmitted, failedCallsOmitted } = bounded;
      const checked = checkUsage(reduced.usage);
      const listed = [...problems];
      let omitted = problemsOmitted;
      for (const message of checked.problems) {
        if (listed.length < MAX_PROBLEMS_PER_SESSION) listed.push({ line: finishLine, message });
        else omitted += 1;
      }
      return {
        file,
        line,
        summary: checked.problems.length === 0 ? reduced : { ...reduced, usage: checked.usage },
        toolCallsOmitted,
        failedCallsOmitted,
        firstAtMs,
        lastAtMs,
        problems: listed,
        problemsOmitted: omitted,
      };
    },
  };
}

/** The UTC calendar day (`2026-08-11`) of a record time in ms, or `null` without one. */
export function utcDay(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString().slice(0, 10);
}
