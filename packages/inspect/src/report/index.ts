/**
 * `@cursor-stream/inspect/report`: one self-contained HTML page of the sessions of logs (an overview, a sortable
 * index, and per session its facts, a timeline and the transcript), built session by session from canonical events
 * within limits that bound its size. Every value of a log is escaped, and the page loads nothing.
 */

export { ansiToHtml, escapeHtml } from './html.ts';
export { DEFAULT_REPORT_LIMITS, type ReportLimits } from './report-limits.ts';
export {
  createReport,
  type ReportOptions,
  type ReportReading,
  type ReportSession,
  type ReportWriter,
} from './report-writer.ts';
