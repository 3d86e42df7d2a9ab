/**
 * The logs a command left out as not Cursor's, as its JSON document lists them: stderr names each one, and a program
 * reading the document needs to know as well that a log it passed was read and not counted, and why.
 */

import { jsonPath } from '@cursor-stream/core/text';

/** A log left out as another agent's (or as mixing another agent's records in), as a JSON document lists it. */
export interface ForeignLogJson {
  /** The log, as the document names its other logs. */
  file: string;
  /** The line whose record told whose log it is; `null` when unknown. */
  line: number | null;
  /** Why it was left out, as the stderr line says it. */
  message: string;
}

/** The fields a JSON document adds for the logs it left out; none when it left none out. */
export interface ForeignLogsFields {
  foreignLogs?: ForeignLogJson[];
  /** Logs left out past the first {@link MAX_FOREIGN_LOGS_LISTED}, counted but not listed. */
  foreignLogsOmitted?: number;
}

/** The most left-out logs a document lists: a folder of another agent's logs does not make it grow without end. */
export const MAX_FOREIGN_LOGS_LISTED = 1000;

/** A problem of a log read through, as the commands collect them (`foreign-format` is another agent's log). */
export interface LogProblemLike {
  readonly code: string;
  readonly path?: string;
  readonly line?: number;
  readonly message: string;
}

/** The {@link ForeignLogsFields} of the `foreign-format` problems among `problems`. */
export function foreignLogsFields(problems: readonly LogProblemLike[]): ForeignLogsFields {
  const listed: ForeignLogJson[] = [];
  let omitted = 0;
  for (const problem of problems) {
    if (problem.code !== 'foreign-format') continue;
    if (listed.length === MAX_FOREIGN_LOGS_LISTED) {
      omitted += 1;
      continue;
    }
    const file = jsonPath(problem.path ?? '-');
    listed.push({ file, line: problem.line ?? null, message: problem.message });
  }
  if (listed.length === 0) return {};
  return omitted === 0 ? { foreignLogs: listed } : { foreignLogs: listed, foreignLogsOmitted: omitted };
}
