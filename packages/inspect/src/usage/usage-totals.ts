/**
 * Token totals and costs over sessions, from each session's `result.usage` (the core reducer's `usage`), grouped by
 * period, session or model, each group with its per-model breakdown. Field names follow ccusage's JSON
 * (`inputTokens`, `outputTokens`, `cacheCreationTokens`, `cacheReadTokens`, `totalTokens`, `totalCost`,
 * `modelsUsed`, `modelBreakdowns`), so its users read them at once. A session without usage is counted apart
 * (`sessionsWithoutUsage`), never estimated; a cost the price table cannot give is `null` (unknown), never 0.
 *
 * State is one entry per group and model: periods or models seen, never sessions (per-session rows are handed on as
 * each session ends).
 */

import { BUILT_IN_PRICE_TABLE, type PriceTable, usageCost } from '@cursor-stream/core/cost';
import type { Usage } from '@cursor-stream/core/normalize';
import type { SessionFacts, SessionFactsOptions } from '@cursor-stream/core/sessions';

/**
 * How usage tracks each session's facts (`trackSessionFacts`): it reads no tool call, so it lists none and keeps its
 * memory flat however many calls a session makes.
 */
export const USAGE_FACTS: SessionFactsOptions = { maxToolCalls: 0 };

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
  /**
   * USD at the price table's rates, over the sessions with usage; `null` (unknown) when one of them ran a model (or
   * used a rate) the table lacks, or when no session reported usage.
   */
  totalCost: number | null;
  /** Sessions in the group, with usage or not. */
  sessionCount: number;
  /** Sessions whose result reported no usage (older CLIs, sessions without a result); their tokens are unknown. */
  sessionsWithoutUsage: number;
}

/** One model's part of a group, as ccusage's `modelBreakdowns` items. */
export interface ModelBreakdown extends TokenTotals {
  /** The model the sessions' init names; `null` when it names none. */
  modelName: string | null;
  /** USD; `null` when the price table lacks the model or a rate its usage needs. */
  cost: number | null;
  sessionCount: number;
  sessionsWithoutUsage: number;
}

/** A group's totals with the models in it. */
export interface UsageRowBase extends UsageTotals {
  /** The models of the group's sessions, sorted. */
  modelsUsed: string[];
  /** The group's totals per model, in model order (the unnamed model last). */
  modelBreakdowns: ModelBreakdown[];
}

/** One session's row (`--by session`). */
export interface SessionUsageRow extends UsageRowBase {
  sessionId: string | null;
  file: string;
  /** Line of the session's first record. */
  line: number | null;
  /** Day of the session's first timestamp in the report's time zone; `null` when its records carry none. */
  date: string | null;
  /** ISO time (UTC) of the session's latest timestamp; `null` when its records carry none. */
  lastActivity: string | null;
}

/** One day's row (`--by day`). */
export interface DailyUsageRow extends UsageRowBase {
  /** The day (`2026-08-11`) of the sessions' first timestamps; `null` for sessions whose records carry none. */
  date: string | null;
}

/** One week's row (`--by week`). */
export interface WeeklyUsageRow extends UsageRowBase {
  /** The Monday (`2026-08-10`) starting the week; `null` for sessions whose records carry none. */
  week: string | null;
}

/** One month's row (`--by month`). */
export interface MonthlyUsageRow extends UsageRowBase {
  /** The month (`2026-08`); `null` for sessions whose records carry none. */
  month: string | null;
}

/** One model's row (`--by model`). */
export interface ModelUsageRow extends UsageTotals {
  /** The model the session's init names; `null` when it names none. */
  modelName: string | null;
}

/** Empty token counts. */
function emptyTokens(): TokenTotals {
  return { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 0 };
}

/** An empty {@link UsageTotals}: no session, and a cost of nothing, which is known. */
export function emptyTotals(): UsageTotals {
  return { ...emptyTokens(), totalCost: 0, sessionCount: 0, sessionsWithoutUsage: 0 };
}

/** One session's usage and cost, as the totals add them. */
export interface PricedUsage {
  usage: Usage | null;
  /** `null` when unknown; irrelevant when `usage` is `null`. */
  cost: number | null;
}

/** The session's usage and its cost at `prices`. */
export function pricedUsage(facts: SessionFacts, prices: PriceTable = BUILT_IN_PRICE_TABLE): PricedUsage {
  const { usage, model } = facts.summary;
  return { usage, cost: usage === null ? null : usageCost(usage, model ?? undefined, prices) };
}

function addTokens(totals: TokenTotals, usage: Usage): void {
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

/**
 * Adds one session's usage (or its lack) and cost to `totals`. The cost sums the sessions with usage, as the tokens
 * do; while none has any, it is unknown rather than 0, since what those sessions cost is not in the logs.
 */
export function addUsage(totals: UsageTotals, { usage, cost }: PricedUsage): void {
  const withUsage = totals.sessionCount - totals.sessionsWithoutUsage;
  totals.sessionCount += 1;
  if (usage === null) {
    totals.sessionsWithoutUsage += 1;
    if (withUsage === 0) totals.totalCost = null;
    return;
  }
  addTokens(totals, usage);
  if (withUsage === 0) totals.totalCost = cost;
  else totals.totalCost = totals.totalCost === null || cost === null ? null : totals.totalCost + cost;
}

/** Code-unit order with `null` (unknown) last, the same on every machine. */
export function byKey(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/** Sums sessions per model: a group's breakdown. */
function createBreakdown() {
  const models = new Map<string | null, UsageTotals>();
  return {
    add(model: string | null, priced: PricedUsage): void {
      let totals = models.get(model);
      if (totals === undefined) {
        totals = emptyTotals();
        models.set(model, totals);
      }
      addUsage(totals, priced);
    },
    rows(): { modelsUsed: string[]; modelBreakdowns: ModelBreakdown[] } {
      const entries = [...models.entries()].sort(([a], [b]) => byKey(a, b));
      return {
        modelsUsed: entries.flatMap(([model]) => (model === null ? [] : [model])),
        modelBreakdowns: entries.map(([modelName, { totalCost, ...totals }]) => ({
          modelName,
          ...totals,
          cost: totalCost,
        })),
      };
    },
  };
}

/** A session's own row; `date` is the day of its first timestamp in the report's zone. */
export function sessionUsageRow(
  facts: SessionFacts,
  date: string | null,
  priced: PricedUsage,
): SessionUsageRow {
  const { summary } = facts;
  const totals = emptyTotals();
  addUsage(totals, priced);
  const breakdown = createBreakdown();
  breakdown.add(summary.model, priced);
  return {
    sessionId: summary.sessionId,
    file: facts.file,
    line: facts.line,
    date,
    lastActivity: facts.lastAtMs === null ? null : new Date(facts.lastAtMs).toISOString(),
    ...totals,
    ...breakdown.rows(),
  };
}

/** One group's totals: the sessions of one period or one model. */
export interface UsageGroup {
  /** The period or the model; `null` for sessions without one. */
  key: string | null;
  totals: UsageTotals;
  /** The models of the group's sessions, sorted. */
  modelsUsed: string[];
  /** The group's totals per model. */
  modelBreakdowns: ModelBreakdown[];
}

/** Sums sessions per key (a period, a model), per model within it, and over all; holds one entry per key and model. */
export function createUsageTally() {
  const groups = new Map<
    string | null,
    { totals: UsageTotals; models: ReturnType<typeof createBreakdown> }
  >();
  const totals = emptyTotals();
  return {
    totals,
    add(key: string | null, model: string | null, priced: PricedUsage): void {
      let group = groups.get(key);
      if (group === undefined) {
        group = { totals: emptyTotals(), models: createBreakdown() };
        groups.set(key, group);
      }
      addUsage(group.totals, priced);
      addUsage(totals, priced);
      group.models.add(model, priced);
    },
    /** The groups in key order (the unknown key last), or the reverse of it with `desc` (the unknown key still last). */
    groups(order: 'asc' | 'desc' = 'asc'): UsageGroup[] {
      return [...groups.entries()]
        .sort(([a], [b]) => (order === 'desc' && a !== null && b !== null ? byKey(b, a) : byKey(a, b)))
        .map(([key, group]) => ({ key, totals: group.totals, ...group.models.rows() }));
    },
  };
}
