/**
 * Looking at runs: a self-contained HTML report of logs (sessions, timelines, transcripts) and their token usage.
 * The `report` and `usage` commands are thin adapters over this entry.
 */

export { type SessionFacts, trackSessionFacts, utcDay } from '@cursor-stream/core/sessions';
export { DEFAULT_REPORT_LIMITS, type ReportLimits } from './report-limits.ts';
export { type UsageOptions, type WriteText, writeUsage } from './usage-output.ts';
export {
  addUsage,
  createUsageTally,
  type DailyUsageRow,
  emptyTotals,
  type ModelUsageRow,
  type SessionUsageRow,
  type TokenTotals,
  USAGE_GROUPINGS,
  type UsageGrouping,
  type UsageTotals,
} from './usage-totals.ts';
export { type ReportOptions, writeReport } from './write-report.ts';
