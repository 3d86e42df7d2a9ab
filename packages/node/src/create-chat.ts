/** `cursor-agent create-chat`: a new, empty chat whose id a later run resumes. */

import type { AgentProcessOptions } from './agent-options.ts';
import { type AgentRunError, classifyRun } from './agent-outcome.ts';
import { startAgentProcess } from './agent-process.ts';
import { createBoundedCapture } from './bounded-capture.ts';

/** What {@link createChat} gives: the chat id, or why there is none. */
export type CreateChatResult = { ok: true; chatId: string } | { ok: false; error: AgentRunError };

/** An id is one token: the CLI prints a UUID; anything with spaces is a message, not an id. */
const CHAT_ID = /^[\w.:-]+$/;

/**
 * Creates a chat with `cursor-agent create-chat` and returns its id (the last line of stdout). Failures are values
 * with the codes of {@link runAgent}: `spawn-failed`, `timeout`, `cancelled`, `signal`, `exit-nonzero`, or
 * `no-result` when the output holds no id.
 */
export async function createChat(options: AgentProcessOptions = {}): Promise<CreateChatResult> {
  const stdout = createBoundedCapture(options.maxCaptureBytes);
  const proc = startAgentProcess({
    args: ['create-chat'],
    options,
    onStdout: (chunk) => stdout.write(chunk),
  });
  const exit = await proc.exited;
  const lines = stdout
    .read()
    .text.split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const last = lines.at(-1);
  const chatId = last !== undefined && CHAT_ID.test(last) ? last : undefined;
  const error = classifyRun(exit, {
    sawResult: chatId !== undefined,
    agentError: undefined,
    stdoutNoise: lines,
  });
  if (error === null && chatId !== undefined) return { ok: true, chatId };
  if (error !== null && error.code !== 'no-result') return { ok: false, error };
  const shown = last === undefined ? 'nothing' : `"${last.slice(0, 120)}"`;
  return {
    ok: false,
    error: { code: 'no-result', message: `create-chat printed no chat id (last line: ${shown}).` },
  };
}
