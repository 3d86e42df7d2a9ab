/**
 * The tool calls of a run that have completed, so that a repeated start or completion of one is told from a new call:
 * the AI SDK takes each call id once, and a start sent again would reopen a finished part.
 */

import { MAX_REMEMBERED_CALLS, rememberCallId } from '@cursor-stream/core/tools';

/**
 * How many completed calls are remembered: core's bound on the calls a stream remembers, so that a run's memory does
 * not grow with its length. A call repeated after a thousand others is taken as a new one.
 */
export const REMEMBERED_CALLS = MAX_REMEMBERED_CALLS;

/**
 * The completed calls of one run, the {@link REMEMBERED_CALLS} latest; an id longer than core's
 * `MAX_REMEMBERED_ID_CHARS` is not kept, so that ids as long as a record do not multiply it.
 */
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
    add: (toolCallId) => rememberCallId(calls, toolCallId),
    clear: () => calls.clear(),
  };
}
