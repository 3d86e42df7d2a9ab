/**
 * `@cursor-stream/inspect/usage`: token usage of sessions from each one's `result.usage`, summed per UTC day, per
 * session or per model, as a table or ccusage-style JSON. It is fed each session's facts (`trackSessionFacts` of
 * `@cursor-stream/core/sessions`) as the session ends, and holds one entry per day or model, never the sessions.
 */

export { USAGE_GROUPINGS, type UsageGrouping } from './usage-grouping.ts';
export { createUsageOutput, type UsageOptions, type UsageOutput } from './usage-output.ts';
export {
  addUsage,
  createUsageTally,
  type DailyUsageRow,
  emptyTotals,
  type ModelUsageRow,
  type SessionUsageRow,
  sessionUsageRow,
  type TokenTotals,
  type UsageGroup,
  type UsageTotals,
} from './usage-totals.ts';
