/** `cursor-agent create-chat`: a new, empty chat whose id a later run resumes. */

import { runAgentCommand } from './agent-command.ts';
import type { AgentProcessOptions } from './agent-options.ts';
import type { AgentRunError } from './agent-outcome.ts';
import { chatIdOf } from './chat-id.ts';

/** What {@link createChat} gives: the chat id, or why there is none. */
export type CreateChatResult = { ok: true; chatId: string } | { ok: false; error: AgentRunError };

/**
 * Creates a chat with `cursor-agent create-chat` and returns its id (the last line of stdout). Failures are values
 * with the codes of {@link runAgent}: `spawn-failed`, `timeout`, `cancelled`, `signal`, `exit-nonzero`, or
 * `no-result` when the output holds no id.
 */
export async function createChat(options: AgentProcessOptions = {}): Promise<CreateChatResult> {
  const outcome = await runAgentCommand(
    ['create-chat'],
    options,
    (lines) => chatIdOf(lines) !== undefined,
    'create-chat printed no chat id',
  );
  if (!outcome.ok) return outcome;
  return { ok: true, chatId: chatIdOf(outcome.lines) as string };
}
