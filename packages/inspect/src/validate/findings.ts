/** What `validate` reports about a line: problems (exit 1) and warnings (reported, exit unchanged). */

import type { StreamAnomalyCode } from '@cursor-stream/core/sessions';

/** Codes of findings about the stream as a whole rather than one record; warnings unless `--strict`. */
export type AnomalyCode = 'unknown-event' | StreamAnomalyCode;

/** One thing `validate` found, located in the input. */
export interface Finding {
  /** 1-based physical line. */
  line: number;
  /** Byte offset of the record (or of the end of input, for a session that ends without a result). */
  offset: number;
  /** A tokenizer or normalizer code (`invalid-json`, `unrecognized-record`, ...), `schema-violation`, `unknown-field`, or an {@link AnomalyCode}. */
  code: string;
  message: string;
  /** JSON Pointer into the record, for schema findings. */
  pointer?: string;
}

/**
 * Findings listed in detail per file and kind. Past it they are only counted, so that a log of garbage keeps memory
 * bounded: the lines of a million broken records say no more than their count.
 */
export const MAX_FINDINGS_LISTED = 10_000;

/** The validation of one log. */
export interface FileReport {
  path: string;
  /** The dialect that read the log; `null` when none was detected. */
  dialect: string | null;
  lines: number;
  events: number;
  problems: Finding[];
  warnings: Finding[];
  /** Problems past {@link MAX_FINDINGS_LISTED}, counted but not listed; absent when none. */
  problemsOmitted?: number;
  /** Warnings past {@link MAX_FINDINGS_LISTED}, counted but not listed; absent when none. */
  warningsOmitted?: number;
}

/** A list of findings that keeps the first {@link MAX_FINDINGS_LISTED} and counts the rest. */
export function createFindingList(): {
  readonly listed: Finding[];
  omitted: number;
  add(finding: Finding): void;
} {
  const list = {
    listed: [] as Finding[],
    omitted: 0,
    add(finding: Finding): void {
      if (list.listed.length < MAX_FINDINGS_LISTED) list.listed.push(finding);
      else list.omitted++;
    },
  };
  return list;
}

/** Problems of a report, listed or not. */
export function problemCount(report: FileReport): number {
  return report.problems.length + (report.problemsOmitted ?? 0);
}

/** Warnings of a report, listed or not. */
export function warningCount(report: FileReport): number {
  return report.warnings.length + (report.warningsOmitted ?? 0);
}

/** Orders findings by where they are in the input; stable, so findings of one record keep their order. */
export function byPosition(a: Finding, b: Finding): number {
  return a.line - b.line || a.offset - b.offset;
}
