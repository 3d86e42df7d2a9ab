/** `cursor-agent create-chat`: a new, empty chat whose id a later run resumes. */

import { runAgentCommand } from './agent-command.ts';
import type { AgentProcessOptions } from './agent-options.ts';
import type { AgentRunError } from './agent-outcome.ts';

/** What {@link createChat} gives: the chat id, or why there is none. */
export type CreateChatResult = { ok: true; chatId: string } | { ok: false; error: AgentRunError };

/** An id is one token: the CLI prints a UUID; anything with spaces is a message, not an id. */
const CHAT_ID = /^[\w.:-]+$/;

function chatIdOf(lines: readonly string[]): string | undefined {
  const last = lines.at(-1);
  return last !== undefined && CHAT_ID.test(last) ? last : undefined;
}

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
