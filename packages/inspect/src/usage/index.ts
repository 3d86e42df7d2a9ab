/**
 * `@cursor-stream/inspect/usage`: token usage and cost of sessions from each one's `result.usage`, summed per day,
 * week or month (in a time zone, the machine's by default), per session or per model, each with its per-model
 * breakdown, within an optional date range, as a table or ccusage-style JSON. It is fed each session's facts
 * (`trackSessionFacts` of `@cursor-stream/core/sessions`) as the session ends, and holds one entry per period and
 * model, never the sessions. Costs come from `@cursor-stream/core/cost`: unknown, never 0, for a model its table lacks.
 */

export { USAGE_GROUPINGS, USAGE_ORDERS, type UsageGrouping, type UsageOrder } from './usage-grouping.ts';
export {
  createUsageOutput,
  resolveUsageOptions,
  type UsageOptions,
  type UsageOutput,
  type UsageRequest,
} from './usage-output.ts';
export {
  createWallClock,
  localTimeZone,
  parseTimeBound,
  type UsageTimeError,
  type UsageTimeResult,
  type WallClock,
} from './usage-time.ts';
export {
  addUsage,
  createUsageTally,
  type DailyUsageRow,
  emptyTotals,
  type ModelBreakdown,
  type ModelUsageRow,
  type MonthlyUsageRow,
  type PricedUsage,
  pricedUsage,
  type SessionUsageRow,
  sessionUsageRow,
  type TokenTotals,
  USAGE_FACTS,
  type UsageGroup,
  type UsageRowBase,
  type UsageTotals,
  type WeeklyUsageRow,
} from './usage-totals.ts';
