import type { AgentErrorEvent } from './events/index.ts';

/** The message of a failed result that says nothing, until the log gives a better one. */
export const NO_ERROR_MESSAGE = 'The agent reported an error without a message.';

/** Error events made with {@link NO_ERROR_MESSAGE}, by identity: a record may carry those very words. */
const messageless = new WeakSet<AgentErrorEvent>();

/**
 * An `error` for a failed result that has no text of its own. The normalizer gives it the nearest preceding line of
 * the agent's plain output instead, when there is one: the CLI writes its failure reason there.
 */
export function messagelessError(): AgentErrorEvent {
  const event: AgentErrorEvent = { type: 'error', message: NO_ERROR_MESSAGE };
  messageless.add(event);
  return event;
}

/** Whether `event` was made by {@link messagelessError}. */
export function isMessageless(event: AgentErrorEvent): boolean {
  return messageless.has(event);
}
