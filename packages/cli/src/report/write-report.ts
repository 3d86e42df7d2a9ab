/**
 * `report`: reads logs session by session and writes one self-contained HTML page. Sections are written as their
 * sessions end; the overview and index come last (the page's style shows them first), so that memory holds one
 * session and the index rows, never the page.
 *
 * Size bound: the page is at most its fixed frame, plus `sectionChars` of sections, plus `indexRows` index rows of
 * bounded cells, whatever the size of the logs (see {@link ReportLimits}).
 */

import { plural } from '@cursor-stream/core/text';
import { type LogSessionsOptions, type LogSessionsOutcome, visitLogSessions } from '@cursor-stream/node/logs';
import { displayPath } from '../cli-error.ts';
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
import type { WriteText } from './usage-output.ts';
import { createValueProblemList, type LogsOutcome, withValueProblems } from './value-problems.ts';

/** Options of {@link writeReport}. */
export interface ReportOptions extends LogSessionsOptions {
  /** The page's title. @defaultValue `'cursor-stream report'` */
  title?: string;
  /** Caps on what the page shows; the defaults are {@link DEFAULT_REPORT_LIMITS}. */
  limits?: Partial<ReportLimits>;
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

function footerText(outcome: LogSessionsOutcome, valuesLeftOut: number): string {
  const parts = [`Made by cursor-stream from ${plural(outcome.files, 'log')}`];
  if (outcome.invalidLines > 0) parts.push(`${plural(outcome.invalidLines, 'invalid line')}`);
  if (valuesLeftOut > 0)
    parts.push(`${plural(valuesLeftOut, 'value')} left out (times or token counts out of range)`);
  if (outcome.eventsOutsideSessions > 0)
    parts.push(`${plural(outcome.eventsOutsideSessions, 'event')} outside any session`);
  if (outcome.errors.length > 0) parts.push(`${plural(outcome.errors.length, 'input')} could not be read`);
  return `${parts.join(' · ')}.`;
}

/**
 * Reads the logs and writes the report page through `write`.
 *
 * @returns What reading came to: unreadable arguments and invalid lines are for the caller to report.
 */
export async function writeReport(
  paths: readonly string[],
  options: ReportOptions,
  write: WriteText,
): Promise<LogsOutcome> {
  const limits: ReportLimits = { ...DEFAULT_REPORT_LIMITS, ...options.limits };
  const rows: IndexRow[] = [];
  const totals = emptyTotals();
  let sectionChars = 0;
  let section: SessionSection | undefined;
  const problems = createValueProblemList();
  await write(pageStart(options.title ?? 'cursor-stream report', paths));
  const outcome = await visitLogSessions(
    paths,
    { ...options, foreignLogs: 'leave-out' },
    {
      start(path) {
        section = createSessionSection(displayPath(path), limits);
      },
      event(event, times) {
        section?.push(event, times);
      },
      async end() {
        if (section === undefined) return;
        const built = section.end(totals.sessions + 1);
        section = undefined;
        if (built === undefined) return;
        problems.add(built.row.facts);
        count(totals, built.row);
        const shown = sectionChars + built.html.length <= limits.sectionChars;
        if (shown) {
          sectionChars += built.html.length;
          await write(built.html);
        } else totals.unshown += 1;
        if (rows.length < limits.indexRows) rows.push(indexRow(built.row, shown));
        else totals.unlisted += 1;
      },
    },
  );
  await write(overviewHtml(rows, totals));
  await write(pageEnd(footerText(outcome, problems.count)));
  return withValueProblems(outcome, problems);
}
