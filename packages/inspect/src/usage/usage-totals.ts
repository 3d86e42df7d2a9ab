/**
 * Token totals over sessions, from each session's `result.usage` (the core reducer's `usage`), grouped by day,
 * session or model. Field names follow ccusage's JSON (`inputTokens`, `outputTokens`, `cacheCreationTokens`,
 * `cacheReadTokens`, `totalTokens`), so its users read them at once. A session without usage is counted apart
 * (`sessionsWithoutUsage`), never estimated.
 *
 * State is one entry per group: days or models seen, never sessions (per-session rows are handed on as each
 * session ends).
 */

import type { Usage } from '@cursor-stream/core/normalize';
import { type SessionFacts, utcDay } from '@cursor-stream/core/sessions';

/** Token counts summed over sessions. `totalTokens` is the sum of the four others, as in ccusage. */
export interface TokenTotals {
  inputTokens: number;
  outputTokens: number;
  /** Cursor's `cacheWriteTokens`. */
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
}

/** Totals of a group of sessions. */
export interface UsageTotals extends TokenTotals {
  /** Sessions in the group, with usage or not. */
  sessionCount: number;
  /** Sessions whose result reported no usage (older CLIs, sessions without a result); their tokens are unknown. */
  sessionsWithoutUsage: number;
}

/** One session's row (`--by session`). */
export interface SessionUsageRow extends UsageTotals {
  sessionId: string | null;
  file: string;
  /** Line of the session's first record. */
  line: number | null;
  /** UTC day of the session's first timestamp; `null` when its records carry none. */
  date: string | null;
  /** ISO time of the session's latest timestamp; `null` when its records carry none. */
  lastActivity: string | null;
  modelsUsed: string[];
}

/** One day's row (`--by day`). */
export interface DailyUsageRow extends UsageTotals {
  /** UTC day (`2026-08-11`) of the sessions' first timestamps; `null` for sessions whose records carry none. */
  date: string | null;
  modelsUsed: string[];
}

/** One model's row (`--by model`). */
export interface ModelUsageRow extends UsageTotals {
  /** The model the session's init names; `null` when it names none. */
  modelName: string | null;
}

/** An empty {@link UsageTotals}. */
export function emptyTotals(): UsageTotals {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cacheCreationTokens: 0,
    cacheReadTokens: 0,
    totalTokens: 0,
    sessionCount: 0,
    sessionsWithoutUsage: 0,
  };
}

/** Adds one session's usage (or its lack) to `totals`. */
export function addUsage(totals: UsageTotals, usage: Usage | null): void {
  totals.sessionCount += 1;
  if (usage === null) {
    totals.sessionsWithoutUsage += 1;
    return;
  }
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const cacheRead = usage.cacheReadTokens ?? 0;
  totals.inputTokens += input;
  totals.outputTokens += output;
  totals.cacheCreationTokens += cacheWrite;
  totals.cacheReadTokens += cacheRead;
  totals.totalTokens += input + output + cacheWrite + cacheRead;
}

/** A session's own row. */
export function sessionUsageRow(facts: SessionFacts): SessionUsageRow {
  const { summary } = facts;
  const row: SessionUsageRow = {
    sessionId: summary.sessionId,
    file: facts.file,
    line: facts.line,
    date: utcDay(facts.firstAtMs),
    lastActivity: facts.lastAtMs === null ? null : new Date(facts.lastAtMs).toISOString(),
    modelsUsed: summary.model === null ? [] : [summary.model],
    ...emptyTotals(),
  };
  addUsage(row, summary.usage);
  return row;
}

/** Code-unit order with `null` (unknown) last, the same on every machine. */
function byKey(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** One group's totals: the sessions of one day or one model. */
export interface UsageGroup {
  /** The day or the model; `null` for sessions without one. */
  key: string | null;
  totals: UsageTotals;
  /** The models of the group's sessions, sorted. */
  modelsUsed: string[];
}

/** Sums sessions per key (a day, a model) and over all; holds one entry per key. */
export function createUsageTally(keyOf: (facts: SessionFacts) => string | null) {
  const groups = new Map<string | null, { totals: UsageTotals; models: Set<string> }>();
  const totals = emptyTotals();
  return {
    totals,
    add(facts: SessionFacts): void {
      const key = keyOf(facts);
      let group = groups.get(key);
      if (group === undefined) {
        group = { totals: emptyTotals(), models: new Set() };
        groups.set(key, group);
      }
      addUsage(group.totals, facts.summary.usage);
      addUsage(totals, facts.summary.usage);
      if (facts.summary.model !== null) group.models.add(facts.summary.model);
    },
    /** The groups in key order, the unknown key last. */
    groups(): UsageGroup[] {
      return [...groups.entries()]
        .sort(([a], [b]) => byKey(a, b))
        .map(([key, group]) => ({ key, totals: group.totals, modelsUsed: [...group.models].sort() }));
    },
  };
}
