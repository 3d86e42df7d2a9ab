/** A short cursor-agent command whose answer is its standard output (`create-chat`, `--list-models`). */

import { stripVTControlCharacters } from 'node:util';
import type { AgentProcessOptions } from './agent-options.ts';
import { type AgentRunError, classifyRun } from './agent-outcome.ts';
import { startAgentProcess } from './agent-process.ts';
import { createBoundedCapture } from './bounded-capture.ts';

/** How a command ended: its non-empty output lines, plain and trimmed, or why it failed. */
export type CommandOutcome = { ok: true; lines: string[] } | { ok: false; error: AgentRunError };

/**
 * Runs `args` and reads its output. `answered` tells whether the lines hold the answer; a run that exits cleanly
 * without one fails with `no-result`, `what` naming what was missing.
 */
export async function runAgentCommand(
  args: readonly string[],
  options: AgentProcessOptions,
  answered: (lines: readonly string[]) => boolean,
  what: string,
): Promise<CommandOutcome> {
  const stdout = createBoundedCapture(options.maxCaptureBytes);
  const proc = startAgentProcess({ args, options, onStdout: (chunk) => stdout.write(chunk) });
  const exit = await proc.exited;
  // Terminal styling (colors, cursor moves) a CLI may print even into a pipe is no part of the answer.
  const text = stripVTControlCharacters(stdout.read().text);
  const lines = text
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
