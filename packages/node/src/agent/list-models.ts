/** `cursor-agent --list-models`: the models a run may name with `model`. */

import { runAgentCommand } from './agent-command.ts';
import type { AgentProcessOptions } from './agent-options.ts';
import type { AgentRunError } from './agent-outcome.ts';

/** One model the agent offers. */
export interface AgentModel {
  /** What `model` (`--model`) takes, e.g. `sonnet-4.5`. */
  id: string;
  /** The name shown to people, e.g. `Claude 4.5 Sonnet`. */
  name: string;
  /** The model runs use now (marked `(current)`). */
  current: boolean;
  /** The account's default model (marked `(default)`). */
  isDefault: boolean;
}

/** What {@link listModels} gives: the models, or why there are none. */
export type ListModelsResult = { ok: true; models: AgentModel[] } | { ok: false; error: AgentRunError };

/** A model line: `<id> - <name>`, the name maybe followed by `(current)` and `(default)`. */
const MODEL_LINE = /^([A-Za-z0-9][\w.:/-]*)\s+-\s+(.+)$/;
const MARK = /\s*\((current|default)\)\s*$/i;

/** The models of `--list-models` output; headings, hints and blank lines are passed over. */
export function parseModelList(lines: readonly string[]): AgentModel[] {
  const models: AgentModel[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const match = MODEL_LINE.exec(line.trim());
    if (match === null) continue;
    const [, id = '', rest = ''] = match;
    let name = rest;
    const marks = new Set<string>();
    for (let mark = MARK.exec(name); mark !== null; mark = MARK.exec(name)) {
      marks.add((mark[1] ?? '').toLowerCase());
      name = name.slice(0, mark.index);
    }
    if (seen.has(id)) continue;
    seen.add(id);
    models.push({
      id,
      name: name.trim() || id,
      current: marks.has('current'),
      isDefault: marks.has('default'),
    });
  }
  return models;
}

/**
 * Lists the models with `cursor-agent --list-models`. Failures are values with the codes of {@link runAgent}:
 * `spawn-failed`, `timeout`, `cancelled`, `signal`, `exit-nonzero`, or `no-result` when the output lists none (a
 * sign-in prompt, say).
 */
export async function listModels(options: AgentProcessOptions = {}): Promise<ListModelsResult> {
  const outcome = await runAgentCommand(
    ['--list-models'],
    options,
    (lines) => parseModelList(lines).length > 0,
    '--list-models printed no model',
  );
  if (!outcome.ok) return outcome;
  return { ok: true, models: parseModelList(outcome.lines) };
}
