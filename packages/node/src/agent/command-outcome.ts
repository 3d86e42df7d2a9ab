/**
 * How a short cursor-agent command ended (`create-chat`, `--list-models`), from its exit and its standard output,
 * wherever it ran: a process of this package's, or a command in a sandbox.
 */

import { type AgentRunError, classifyRun } from './agent-outcome.ts';
import type { ProcessExit } from './agent-process.ts';

/** How a command ended: its non-empty output lines, plain and trimmed, or why it failed. */
export type CommandOutcome = { ok: true; lines: string[] } | { ok: false; error: AgentRunError };

/**
 * The outcome of a command that exited as `exit` after printing `stdout` (terminal styling already removed).
 * `answered` tells whether the lines hold the answer; a run that exits cleanly without one fails with `no-result`,
 * `what` naming what was missing.
 */
export function commandOutcome(
  exit: ProcessExit,
  stdout: string,
  answered: (lines: readonly string[]) => boolean,
  what: string,
): CommandOutcome {
  const lines = stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const ok = answered(lines);
  // The output is the answer here, not the agent's sentence for a failure: stderr says why first.
  const stdoutNoise = exit.stderr.text.trim() === '' ? lines : [];
  const error = classifyRun(exit, { sawResult: ok, agentFailed: false, agentError: undefined, stdoutNoise });
  if (error === null && ok) return { ok: true, lines };
  if (error !== null && error.code !== 'no-result') return { ok: false, error };
  const last = lines.at(-1);
  const shown = last === undefined ? 'nothing' : `"${last.slice(0, 120)}"`;
  return { ok: false, error: { code: 'no-result', message: `${what} (last line: ${shown}).` } };
}
