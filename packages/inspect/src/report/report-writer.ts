/**
 * The report page of logs read session by session: a section as each session ends, then the overview and the index
 * (written last, shown first by the page's style), so that memory holds one session and the index rows, never the
 * page. The caller reads the logs and writes the pieces; this holds no I/O.
 *
 * Size bound: the page is at most its fixed frame, plus `sectionChars` of sections, plus `indexRows` index rows of
 * bounded cells, whatever the size of the logs (see {@link ReportLimits}).
 */

import type { CanonicalEvent, RecordTimes } from '@cursor-stream/core/normalize';
import type { SessionFacts } from '@cursor-stream/core/sessions';
import { plural } from '@cursor-stream/core/text';
import { DEFAULT_REPORT_LIMITS, type ReportLimits } from './report-limits.ts';
import {
  type IndexRow,
  indexRow,
  overviewHtml,
  pageEnd,
  pageStart,
  type ReportTotals,
} from './report-page.ts';
import { createSessionSection, type SessionRow, type SessionSection } from './session-section.ts';

/** Options of {@link createReport}. */
export interface ReportOptions {
  /** The page's title. @defaultValue `'cursor-stream report'` */
  readonly title?: string;
  /** The logs the page is made of, as given (`-` for standard input), named under the title. */
  readonly inputs: readonly string[];
  /** Caps on what the page shows; the defaults are {@link DEFAULT_REPORT_LIMITS}. */
  readonly limits?: Partial<ReportLimits>;
}

/** What reading the logs came to, said in the page's footer. */
export interface ReportReading {
  /** Logs read to the end. */
  readonly files: number;
  readonly invalidLines: number;
  /** Values left out of the sessions' facts (times or token counts out of range). */
  readonly valuesLeftOut: number;
  readonly eventsOutsideSessions: number;
  /** Inputs that could not be read. */
  readonly unreadable: number;
}

/** A session's end as the page took it. */
export interface ReportSession {
  /** The session's facts, whose `problems` are the values it left out. */
  readonly facts: SessionFacts;
  /** The session's section, to write now; empty once the page's budget for sections is spent. */
  readonly html: string;
}

/** Builds the report page; see {@link createReport}. */
export interface ReportWriter {
  /** The page's start, to write first. */
  readonly head: string;
  /** A session of `file` (the log as the page names it) begins. */
  startSession(file: string): void;
  /** The next event of the open session, with the times its record carries. */
  push(event: CanonicalEvent, times: RecordTimes | undefined): void;
  /** The open session ended; `undefined` when it had no content. */
  endSession(): ReportSession | undefined;
  /** The overview, the index and the footer, to write last. */
  end(reading: ReportReading): string;
}

function emptyTotals(): ReportTotals {
  return {
    sessions: 0,
    byStatus: {},
    tokens: 0,
    sessionsWithoutUsage: 0,
    toolCalls: 0,
    failedCalls: 0,
    unlisted: 0,
    unshown: 0,
  };
}

function count(totals: ReportTotals, row: SessionRow): void {
  const status = row.facts.summary.status;
  totals.sessions += 1;
  totals.byStatus[status] = (totals.byStatus[status] ?? 0) + 1;
  if (row.tokens === null) totals.sessionsWithoutUsage += 1;
  else totals.tokens += row.tokens;
  totals.toolCalls += row.toolCalls;
  totals.failedCalls += row.failedCalls;
}

function footerText(reading: ReportReading): string {
  const parts = [`Made by cursor-stream from ${plural(reading.files, 'log')}`];
  if (reading.invalidLines > 0) parts.push(`${plural(reading.invalidLines, 'invalid line')}`);
  if (reading.valuesLeftOut > 0)
    parts.push(`${plural(reading.valuesLeftOut, 'value')} left out (times or token counts out of range)`);
  if (reading.eventsOutsideSessions > 0)
    parts.push(`${plural(reading.eventsOutsideSessions, 'event')} outside any session`);
  if (reading.unreadable > 0) parts.push(`${plural(reading.unreadable, 'input')} could not be read`);
  return `${parts.join(' · ')}.`;
}

/** Starts a report page over the sessions the caller reads, in order. */
export function createReport(options: ReportOptions): ReportWriter {
  const limits: ReportLimits = { ...DEFAULT_REPORT_LIMITS, ...options.limits };
  const rows: IndexRow[] = [];
  const totals = emptyTotals();
  let sectionChars = 0;
  let section: SessionSection | undefined;
  return {
    head: pageStart(options.title ?? 'cursor-stream report', options.inputs),
    startSession(file) {
      section = createSessionSection(file, limits);
    },
    push(event, times) {
      section?.push(event, times);
    },
    endSession() {
      if (section === undefined) return undefined;
      const built = section.end(totals.sessions + 1);
      section = undefined;
      if (built === undefined) return undefined;
      count(totals, built.row);
      const shown = sectionChars + built.html.length <= limits.sectionChars;
      if (shown) sectionChars += built.html.length;
      else totals.unshown += 1;
      if (rows.length < limits.indexRows) rows.push(indexRow(built.row, shown));
      else totals.unlisted += 1;
      return { facts: built.row.facts, html: shown ? built.html : '' };
    },
    end(reading) {
      return overviewHtml(rows, totals) + pageEnd(footerText(reading));
    },
  };
}
