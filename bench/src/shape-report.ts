/**
 * The report of a run over every log shape: a table per shape, one matrix of the commands' ratios to the reference
 * loop, and the section of RESULTS.md that holds it. On a busy machine the processes compared do not slow down
 * alike, so a run during which the 1-minute load went above {@link QUIET_LOAD} is printed but never written there.
 */

import { readFile, writeFile } from 'node:fs/promises';
import { type CommandReport, formatCommandReport } from './command-rows.ts';
import { MAX_SETTLE_MS, SETTLED_LOAD } from './settle.ts';
import type { LogShape } from './shape-corpora.ts';

/** The highest 1-minute load average at which a run's figures are written to RESULTS.md. */
export const QUIET_LOAD = 1.5;

/** Where the command section of RESULTS.md begins and ends; a written run replaces what is between. */
export const RESULTS_BEGIN = '<!-- commands:begin (written by `pnpm bench --commands`) -->';
export const RESULTS_END = '<!-- commands:end -->';

/** One shape's measurement. */
export interface ShapeReport {
  shape: LogShape;
  report: CommandReport;
}

/** The highest 1-minute load average seen during any of the reports (before or after a run, at start or end). */
export function highestLoad(reports: readonly ShapeReport[]): number {
  let highest = Number.NEGATIVE_INFINITY;
  for (const { report } of reports) {
    highest = Math.max(highest, report.loadAtStart[0] ?? Number.NaN, report.loadAtEnd[0] ?? Number.NaN);
    for (const row of report.rows) highest = Math.max(highest, row.loadMax);
  }
  return highest;
}

/**
 * Why a run may not be written to RESULTS.md, or `undefined` when it may. `otherLoads` are the highest loads of the
 * run's other measurements (start-up, two jobs).
 */
export function refusalOf(
  reports: readonly ShapeReport[],
  complete: boolean,
  otherLoads: readonly number[] = [],
): string | undefined {
  if (!complete) return 'not every shape was measured at its full size';
  const highest = Math.max(highestLoad(reports), ...otherLoads);
  if (!(highest <= QUIET_LOAD))
    return `the 1-minute load average reached ${highest.toFixed(2)}, above ${QUIET_LOAD}: on a busy machine the processes compared do not slow down alike`;
  return undefined;
}

const ratio = (value: number | undefined): string =>
  value === undefined || !Number.isFinite(value) ? '-' : `${value.toFixed(2)}x`;

/**
 * The commands' ratios to the reference loop on every shape, one row per shape: the ratio of medians, then the median
 * of the paired per-round ratios in parentheses.
 */
export function formatShapeMatrix(reports: readonly ShapeReport[]): string {
  if (reports.length === 0) return '';
  const commands: string[] = [];
  for (const { report } of reports)
    for (const row of report.rows)
      if (row.name !== 'reference-loop' && !commands.includes(row.name)) commands.push(row.name);
  const labelOf = (name: string) => name.replace(/^cli-/, '').replace('summary-json', 'summary --json');
  const lines = [
    `| shape | reference loop MB/s | ${commands.map(labelOf).join(' | ')} | 1-min load |`,
    `|---|---:|${commands.map(() => '---:').join('|')}|---:|`,
  ];
  for (const { shape, report } of reports) {
    const reference = report.rows.find((row) => row.name === 'reference-loop');
    const cells = commands.map((name) => {
      const row = report.rows.find((candidate) => candidate.name === name);
      return row === undefined ? '' : `${ratio(row.ratio)} (${ratio(row.pairedRatio)})`;
    });
    const lowest = Math.min(...report.rows.map((row) => row.loadMin));
    const highest = Math.max(...report.rows.map((row) => row.loadMax));
    lines.push(
      `| ${shape.name} | ${reference === undefined ? '-' : reference.mbPerSec.toFixed(1)} | ${cells.join(' | ')} | ` +
        `${lowest.toFixed(2)}-${highest.toFixed(2)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The whole report: the matrix, then each shape's table; `otherLoads` as {@link refusalOf} takes them. */
export function formatShapeReports(
  reports: readonly ShapeReport[],
  date: string,
  otherLoads: readonly number[] = [],
): string {
  const runs = reports[0]?.report.runs ?? 0;
  return [
    `Run of ${date}: the built CLI as installed, whole fresh processes from spawn to exit, ${runs} rounds interleaved ` +
      'with the reference loop (`readSync` + `TextDecoder` + `String#indexOf` + `JSON.parse`, reading a folder one file after ' +
      'another), and with `buffer-indexof`, the plain loop that decodes each line on its own; ' +
      `each run started once the 1-minute load had fallen to ${SETTLED_LOAD} (waiting at most ` +
      `${MAX_SETTLE_MS / 1000} s) and its input had been read through, so that every row reads it from memory; ` +
      'x = reference loop median time / command median time, (paired) = median of the ' +
      'per-round ratios. ' +
      `Highest 1-minute load average seen: ${Math.max(highestLoad(reports), ...otherLoads).toFixed(2)}.`,
    '',
    formatShapeMatrix(reports),
    ...reports.map(({ shape, report }) =>
      formatCommandReport({ ...report, file: shape.description }, `### ${shape.name}\n`),
    ),
  ].join('\n');
}

/**
 * `results` with the text between {@link RESULTS_BEGIN} and {@link RESULTS_END} replaced by `section` (the markers
 * added at the end when missing).
 */
export function withCommandSection(results: string, section: string): string {
  const block = `${RESULTS_BEGIN}\n\n${section.trimEnd()}\n\n${RESULTS_END}`;
  const begin = results.indexOf(RESULTS_BEGIN);
  const end = results.indexOf(RESULTS_END);
  if (begin === -1 || end < begin) return `${results.trimEnd()}\n\n${block}\n`;
  return `${results.slice(0, begin)}${block}${results.slice(end + RESULTS_END.length)}`;
}

/** Writes `section` into the RESULTS.md at `file`. */
export async function writeCommandSection(file: string, section: string): Promise<void> {
  await writeFile(file, withCommandSection(await readFile(file, 'utf8'), section));
}
