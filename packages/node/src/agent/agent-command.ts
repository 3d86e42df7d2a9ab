/** A short cursor-agent command whose answer is its standard output (`create-chat`, `--list-models`). */

import { stripVTControlCharacters } from 'node:util';
import type { AgentProcessOptions } from './agent-options.ts';
import { startAgentProcess } from './agent-process.ts';
import { createBoundedCapture } from './bounded-capture.ts';
import { type CommandOutcome, commandOutcome } from './command-outcome.ts';

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
  return commandOutcome(exit, stripVTControlCharacters(stdout.read().text), answered, what);
}
