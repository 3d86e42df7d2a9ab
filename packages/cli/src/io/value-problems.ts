/**
 * The values `usage`, `report` and `summary` leave out of the sessions' facts, said as located input problems: one stderr line
 * each (`cursor-stream: FILE: line 3: timestamp_ms 1e+300 is after 2554-07-21, ...; left out`), after the output, and
 * exit code 1. Bounded: past {@link MAX_VALUE_PROBLEMS_LISTED} lines they are counted.
 */

import type { SessionFacts } from '@cursor-stream/core/sessions';
import { escapeControls, plural } from '@cursor-stream/core/text';
import type { LogSessionsOutcome } from '@cursor-stream/node/logs';
import { type CliError, cliError } from './cli-error.ts';

/** The most values left out that a command lists; a last line counts the rest. */
export const MAX_VALUE_PROBLEMS_LISTED = 100;

/** Collects the problems of the sessions as they end. */
export interface ValueProblemList {
  add(facts: SessionFacts): void;
  /** Adds values a log's sessions left out, said without a line (`session ID: …`), and `omitted` more not listed. */
  addMessages(file: string, messages: readonly string[], omitted: number): void;
  /** How many values were left out in all. */
  readonly count: number;
  /** The first of them as errors, in the order of the sessions, and a line counting the rest. */
  errors(): CliError[];
}

/** What reading logs session by session came to, the values left out among its input problems. */
export type LogsOutcome = Omit<LogSessionsOutcome, 'inputProblems'> & { readonly inputProblems: CliError[] };

/** The outcome of reading the logs, with the values `problems` left out after the logs' own input problems. */
export function withValueProblems(outcome: LogSessionsOutcome, problems: ValueProblemList): LogsOutcome {
  return { ...outcome, inputProblems: [...outcome.inputProblems, ...problems.errors()] };
}

/** An empty {@link ValueProblemList}. */
export function createValueProblemList(): ValueProblemList {
  const listed: CliError[] = [];
  let omitted = 0;
  function take(file: string, line: number | null, message: string): void {
    if (listed.length >= MAX_VALUE_PROBLEMS_LISTED) {
      omitted += 1;
      return;
    }
    const where = line === null ? '' : `line ${line}: `;
    listed.push(cliError('invalid-value', `${where}${escapeControls(message)}; left out`, file));
  }
  return {
    add(facts) {
      for (const { line, message } of facts.problems) take(facts.file, line, message);
      omitted += facts.problemsOmitted;
    },
    addMessages(file, messages, more) {
      for (const message of messages) take(file, null, message);
      omitted += more;
    },
    get count() {
      return listed.length + omitted;
    },
    errors() {
      if (omitted === 0) return [...listed];
      return [...listed, cliError('invalid-value', `${plural(omitted, 'more value')} left out, not listed`)];
    },
  };
}
