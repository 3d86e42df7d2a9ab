/**
 * The tool calls of a run that have completed, so that a repeated start or completion of one is told from a new call:
 * the AI SDK takes each call id once, and a start sent again would reopen a finished part.
 */

/**
 * How many completed calls are remembered. A bound, so that a run's memory does not grow with its length: a call
 * repeated after a thousand others is taken as a new one.
 */
export const REMEMBERED_CALLS = 1024;

/** The completed calls of one run, the {@link REMEMBERED_CALLS} latest. */
export interface CompletedCalls {
  has(toolCallId: string): boolean;
  add(toolCallId: string): void;
  /** Forgets every call: a new session's ids are its own. */
  clear(): void;
}

/** A fresh {@link CompletedCalls}. */
export function createCompletedCalls(): CompletedCalls {
  const calls = new Set<string>();
  return {
    has: (toolCallId) => calls.has(toolCallId),
    add(toolCallId) {
      calls.add(toolCallId);
      if (calls.size > REMEMBERED_CALLS) calls.delete(calls.values().next().value as string);
    },
    clear: () => calls.clear(),
  };
}
