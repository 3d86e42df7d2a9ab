/**
 * `@cursor-stream/inspect/summary`: the view of `cursor-stream summary`. Each session as it ends (a
 * `BoundedSession` of `@cursor-stream/core/sessions`) becomes its `summary --json` object and a compact table that
 * a person reads at a glance; the invalid lines of the log are listed within a bound and counted past it.
 */

export {
  createInvalidLineList,
  createInvalidLinesJoin,
  createSummaryJsonWriter,
  type InvalidLinesJoin,
  type InvalidLinesJson,
  invalidLineCount,
  joinInvalidLines,
  MAX_INVALID_LINES_LISTED,
  MAX_USAGE_LEFT_OUT_LISTED,
  type SummaryInvalidLineJson,
  type SummaryJson,
  type SummarySessionJson,
  type SummaryToolCallJson,
  sessionJson,
  sessionJsonBlock,
  type UsageLeftOut,
  usageLeftOut,
} from './summary-json.ts';
export {
  formatSummaryText,
  type SummaryFooter,
  sessionLines,
  sessionTextBlock,
  summaryFooterLine,
} from './summary-text.ts';
