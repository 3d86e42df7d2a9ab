/** The outputs of `validate`: one line per finding and a summary per file, or the `--json` document. */

import { displayPath, escapeControls, plural } from '@cursor-stream/core/text';
import { findingMessage } from '../finding-message.ts';
import type { Palette } from '../terminal/index.ts';
import { type FileReport, type Finding, problemCount, warningCount } from './findings.ts';

/** One file in `validate --json`: its report, or the I/O error that stopped it. */
export type ValidateFileJson =
  | FileReport
  | (Omit<FileReport, 'dialect'> & { dialect: null; error: { code: string; message: string } });

/** The whole `validate --json` document. */
export interface ValidateJson {
  /** True when no file had a problem and every file could be read. */
  ok: boolean;
  files: ValidateFileJson[];
}

/**
 * A file's entry in the JSON document when it could not be read, with the error (its code and message) that stopped
 * it and, when the reading failed part-way, what was found before (`readFirst`).
 */
export function unreadableFileJson(
  path: string,
  error: { readonly code: string; readonly message: string },
  readFirst?: FileReport,
): ValidateFileJson {
  const read: Omit<FileReport, 'path' | 'dialect'> = readFirst ?? {
    lines: 0,
    events: 0,
    problems: [],
    warnings: [],
  };
  return {
    path,
    dialect: null,
    lines: read.lines,
    events: read.events,
    problems: read.problems,
    warnings: read.warnings,
    ...(read.problemsOmitted === undefined ? {} : { problemsOmitted: read.problemsOmitted }),
    ...(read.warningsOmitted === undefined ? {} : { warningsOmitted: read.warningsOmitted }),
    error: { code: error.code, message: error.message },
  };
}

/** A finding as one line: `FILE:LINE: code: message (at /pointer)`, with `warning: ` before the code for warnings. */
export function findingLine(
  path: string,
  finding: Finding,
  severity: 'problem' | 'warning',
  palette: Palette,
): string {
  const where = `${displayPath(path)}:${finding.line}:`;
  const code =
    severity === 'warning' ? palette.yellow(`warning: ${finding.code}`) : palette.red(finding.code);
  const pointer =
    finding.pointer === undefined || finding.pointer === '' ? '' : ` (at ${escapeControls(finding.pointer)})`;
  return `${palette.bold(where)} ${code}: ${findingMessage(finding)}${pointer}`;
}

function warningCounts(warnings: readonly Finding[]): string {
  const counts = new Map<string, number>();
  for (const warning of warnings) counts.set(warning.code, (counts.get(warning.code) ?? 0) + 1);
  return [...counts].map(([code, count]) => `${code} ${count}`).join(', ');
}

/** The summary line of one file, after its findings. */
export function fileSummaryLine(report: FileReport, palette: Palette): string {
  const foreign = report.problems.length === 1 && report.problems[0]?.code === 'foreign-format';
  const facts = [
    report.dialect ?? (foreign ? 'not a Cursor stream' : 'no dialect detected'),
    plural(report.lines, 'line'),
    plural(report.events, 'event'),
  ];
  const problems =
    problemCount(report) === 0
      ? palette.green('no problems')
      : palette.red(plural(problemCount(report), 'problem'));
  const listedCounts = warningCounts(report.warnings);
  const warnings =
    warningCount(report) === 0
      ? ''
      : `, ${palette.yellow(plural(warningCount(report), 'warning'))} (${report.warningsOmitted ? `listed: ${listedCounts}` : listedCounts})`;
  return `${palette.bold(`${displayPath(report.path)}:`)} ${facts.join(', ')}: ${problems}${warnings}`;
}

/** All the lines of one file's text report: its problems and warnings in input order, then its summary. */
export function fileReportLines(report: FileReport, palette: Palette): string[] {
  return [...findingLines(report, palette), fileSummaryLine(report, palette)];
}

/**
 * A report's findings, a line each in the order of the log, and a line for those not listed: the lines of
 * {@link fileReportLines} before its summary, which a log whose reading failed part-way prints above its error.
 */
export function findingLines(report: FileReport, palette: Palette): string[] {
  const findings = [
    ...report.problems.map((finding) => ({ finding, severity: 'problem' as const })),
    ...report.warnings.map((finding) => ({ finding, severity: 'warning' as const })),
  ].sort((a, b) => a.finding.line - b.finding.line || a.finding.offset - b.finding.offset);
  const omitted = [
    report.problemsOmitted ? plural(report.problemsOmitted, 'more problem') : '',
    report.warningsOmitted ? plural(report.warningsOmitted, 'more warning') : '',
  ].filter((part) => part !== '');
  return [
    ...findings.map(({ finding, severity }) => findingLine(report.path, finding, severity, palette)),
    ...(omitted.length === 0
      ? []
      : [`${palette.bold(`${displayPath(report.path)}:`)} ${omitted.join(' and ')} not listed`]),
  ];
}

/** The closing line when several files were validated. */
export function totalsLine(files: readonly ValidateFileJson[], palette: Palette): string {
  const problems = files.reduce((sum, file) => sum + problemCount(file), 0);
  const warnings = files.reduce((sum, file) => sum + warningCount(file), 0);
  const unreadable = files.filter((file) => 'error' in file).length;
  const parts = [
    problems === 0 ? palette.green('no problems') : palette.red(plural(problems, 'problem')),
    warnings === 0 ? '' : palette.yellow(plural(warnings, 'warning')),
    unreadable === 0 ? '' : palette.red(`${plural(unreadable, 'file')} not read`),
  ].filter((part) => part !== '');
  return `${plural(files.length, 'file')}: ${parts.join(', ')}`;
}
