/**
 * How much of a log the report shows. Each limit cuts a part of the page that grows with the log, and the cut is
 * said on the page with the size left out, so that the report of a log of any size has a bounded size.
 */

/** The caps of one report. Sizes are in characters (UTF-16 units) of HTML. */
export interface ReportLimits {
  /** A tool call's arguments or output, and a long user prompt, shown in full up to this many characters. */
  valueChars: number;
  /** One session's transcript. */
  transcriptChars: number;
  /** Bars of one session's timeline (tool calls, reasoning, model turns). */
  timelineBars: number;
  /** All session sections together; sessions past it are listed in the index only. */
  sectionChars: number;
  /** Rows of the index; sessions past it are counted, not listed. */
  indexRows: number;
}

/** The caps `report` uses: a report stays under about 40 MB of HTML whatever the logs. */
export const DEFAULT_REPORT_LIMITS: ReportLimits = {
  valueChars: 8_000,
  transcriptChars: 400_000,
  timelineBars: 1_000,
  sectionChars: 24_000_000,
  indexRows: 10_000,
};

/** Longest text of one index cell (a file path, a session id, a failure reason). */
export const INDEX_CELL_CHARS = 200;
