/** The text form of `summary`: a compact table per session that a person reads at a glance. */

import {
  escapeControls,
  foldToOneLine,
  formatBytes,
  formatCount,
  formatDuration,
  plural,
  truncate,
} from '@cursor-stream/core/text';
import { type Cell, formatTable, type Palette } from '../terminal/index.ts';
import { failureText } from '../transcript/index.ts';
import {
  invalidLineCount,
  type SummaryJson,
  type SummarySessionJson,
  type SummaryToolCallJson,
} from './summary-json.ts';

/** Longest assistant text shown, in characters; the JSON form has it whole. */
const TEXT_PREVIEW_LENGTH = 100;
/** Invalid lines listed by number before the rest is only counted. */
const INVALID_LINES_LISTED = 10;

function statusStyle(status: string, palette: Palette): (text: string) => string {
  if (status === 'success') return palette.green;
  if (status === 'pending' || status === 'incomplete') return palette.yellow;
  return palette.red;
}

function usageText(usage: SummarySessionJson['usage']): string | null {
  if (usage === null) return null;
  const parts = [
    usage.inputTokens === undefined ? null : `${formatCount(usage.inputTokens)} in`,
    usage.outputTokens === undefined ? null : `${formatCount(usage.outputTokens)} out`,
    usage.cacheReadTokens === undefined ? null : `${formatCount(usage.cacheReadTokens)} cache read`,
    usage.cacheWriteTokens === undefined ? null : `${formatCount(usage.cacheWriteTokens)} cache write`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? null : `tokens ${parts.join(', ')}`;
}

function lineSpan(call: SummaryToolCallJson): string {
  if (call.startLine === null && call.endLine === null) return '-';
  if (call.startLine === null) return `?-${call.endLine}`;
  if (call.endLine === null) return `${call.startLine}-?`;
  return call.startLine === call.endLine ? String(call.startLine) : `${call.startLine}-${call.endLine}`;
}

function toolRows(calls: readonly SummaryToolCallJson[], palette: Palette): Cell[][] {
  const header: Cell[] = ['#', 'tool', 'status', 'lines', 'duration', 'id'].map((text) => ({
    text,
    style: palette.dim,
  }));
  const rows = calls.map((call, index): Cell[] => [
    { text: String(index + 1) },
    { text: escapeControls(call.toolName) },
    { text: call.status, style: statusStyle(call.status, palette) },
    { text: lineSpan(call) },
    { text: call.durationMs === null ? '-' : formatDuration(call.durationMs) },
    { text: escapeControls(call.toolCallId) },
  ]);
  return [header, ...rows];
}

function countsText(counts: SummarySessionJson['counts']): string {
  const entries = Object.entries(counts).filter(([, count]) => (count ?? 0) > 0);
  return entries.length === 0 ? 'none' : entries.map(([type, count]) => `${type} ${count}`).join(', ');
}

function statusLine(session: SummarySessionJson, palette: Palette): string {
  const parts = [statusStyle(session.status, palette)(session.status)];
  if (session.durationMs !== null) parts.push(`in ${formatDuration(session.durationMs)}`);
  const usage = usageText(session.usage);
  if (usage !== null) parts.push(usage);
  return parts.join(' · ');
}

function textLines(session: SummarySessionJson, palette: Palette): Cell[][] {
  const rows: Cell[][] = [
    [
      { text: 'text' },
      { text: session.text === '' ? '(none)' : truncate(foldToOneLine(session.text), TEXT_PREVIEW_LENGTH) },
    ],
  ];
  if (session.resultText !== null && session.textMatchesResult === false) {
    rows.push([
      { text: 'result' },
      {
        text: `differs from the text: ${truncate(foldToOneLine(session.resultText), TEXT_PREVIEW_LENGTH)}`,
        style: palette.yellow,
      },
    ]);
  }
  return rows;
}

/** The agent's sentence saying why the session failed, when the log holds one. */
function errorLines(session: SummarySessionJson, palette: Palette): Cell[][] {
  if (session.error === null) return [];
  return [[{ text: 'error' }, { text: escapeControls(failureText(session.error)), style: palette.red }]];
}

/** The lines of one session's block. */
export function sessionLines(session: SummarySessionJson, palette: Palette): string[] {
  const model = [session.model, session.dialect === null ? null : `(${session.dialect})`].filter(
    (part) => part !== null,
  );
  const toolCallTotal = session.toolCalls.length + session.toolCallsOmitted;
  const fields: Cell[][] = [
    ...(session.file === undefined ? [] : [[{ text: 'file' }, { text: escapeControls(session.file) }]]),
    [{ text: 'model' }, { text: model.length === 0 ? '-' : escapeControls(model.join(' ')) }],
    [{ text: 'status' }, { text: statusLine(session, palette) }],
    ...errorLines(session, palette),
    ...textLines(session, palette),
    [{ text: 'events' }, { text: countsText(session.counts) }],
    [{ text: 'tools' }, { text: toolCallTotal === 0 ? 'none' : plural(toolCallTotal, 'call') }],
  ];
  const title = `${palette.bold('session')} ${escapeControls(session.sessionId ?? '(no id)')}`;
  const tools =
    session.toolCalls.length === 0 ? [] : formatTable(toolRows(session.toolCalls, palette), '    ');
  return [
    title,
    ...formatTable(
      fields.map((row) => row.map((cell, i) => (i === 0 ? { ...cell, style: palette.dim } : cell))),
      '  ',
    ),
    ...tools,
  ];
}

/** A session's block of the text form, with the blank line that follows it. */
export function sessionTextBlock(session: SummarySessionJson, palette: Palette): string {
  return `${sessionLines(session, palette).join('\n')}\n\n`;
}

/** The input facts `summary` ends with, whatever the number of sessions before them. */
export type SummaryFooter = Omit<SummaryJson, 'sessions'>;

function invalidLinesText(summary: SummaryFooter): string {
  const { invalidLines } = summary;
  const total = invalidLineCount(summary);
  if (total === 0) return 'no invalid lines';
  const listed = invalidLines
    .slice(0, INVALID_LINES_LISTED)
    .map(
      ({ file, line, code }) => `${file === undefined ? '' : `${escapeControls(file)}:`}${line} (${code})`,
    );
  const more = total - listed.length;
  return `${plural(total, 'invalid line')}: ${listed.join(', ')}${more > 0 ? `, and ${formatCount(more)} more` : ''}`;
}

/** The closing `input` line: lines, bytes, sessions and invalid lines of the log, or of the logs and how many. */
export function summaryFooterLine(summary: SummaryFooter, sessionCount: number, palette: Palette): string {
  const logs = summary.files === undefined ? '' : `${plural(summary.files, 'log')}, `;
  const input = `${palette.bold('input')} ${logs}${plural(summary.lines, 'line')}, ${formatBytes(summary.bytes)}, ${plural(sessionCount, 'session')}, `;
  const invalid = invalidLinesText(summary);
  return input + (invalidLineCount(summary) === 0 ? invalid : palette.red(invalid));
}

/** The whole text form of `summary`, one string per output line. */
export function formatSummaryText(summary: SummaryJson, palette: Palette): string[] {
  const blocks = summary.sessions.map((session) => sessionLines(session, palette));
  return [
    ...blocks.flatMap((block) => [...block, '']),
    summaryFooterLine(summary, summary.sessions.length, palette),
  ];
}
