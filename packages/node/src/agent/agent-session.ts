/**
 * A conversation: each message is a run that resumes the chat by id. cursor-agent starts a fresh chat, silently,
 * when asked to resume one it does not know; the session notices (the new `session_id`), reports it and follows it.
 */

import type { RunAgentOptions } from './agent-options.ts';
import { type AgentRun, startAgentRun } from './run-agent.ts';
import type { SessionChange } from './run-events.ts';

/** Options of one message: a run's, without `resume` (the session sets it). */
export type SendOptions = Omit<RunAgentOptions, 'resume'>;

/** Options of {@link createSession}. */
export interface SessionOptions extends SendOptions {
  /** The chat to continue (e.g. from {@link createChat}); without it the first message starts one. */
  sessionId?: string;
  /** Called when the agent started another session than the one resumed; the session then follows the new one. */
  onSessionChange?(change: SessionChange): void;
}

/** A conversation with the agent; see {@link createSession}. */
export interface AgentSession {
  /** The chat the next message resumes; `undefined` until the first run names one. */
  readonly id: string | undefined;
  /** Whether a message is running. */
  readonly busy: boolean;
  /** Every time the agent started another session than the one resumed, in order. */
  readonly changes: readonly SessionChange[];
  /**
   * Sends a message: a run with `--resume <id>` (none for the first message of a new session). While a message is
   * running, another is refused: its run ends at once with the error code `session-busy`.
   */
  send(prompt: string, options?: SendOptions): AgentRun;
}

/** Creates a session whose messages run one at a time, each resuming the chat the previous one used. */
export function createSession(options: SessionOptions = {}): AgentSession {
  const { sessionId, onSessionChange, ...base } = options;
  let id = sessionId;
  let busy = false;
  const changes: SessionChange[] = [];

  function follow(actual: string): void {
    if (id !== undefined && actual !== id) {
      const change = { requested: id, actual };
      changes.push(change);
      onSessionChange?.(change);
    }
    id = actual;
  }

  return {
    get id() {
      return id;
    },
    get busy() {
      return busy;
    },
    changes,
    send(prompt, overrides = {}) {
      const runOptions: RunAgentOptions = {
        ...base,
        ...overrides,
        ...(id === undefined ? {} : { resume: id }),
      };
      if (busy) {
        const message = 'The session is still running its previous message; send the next one after it ends.';
        return startAgentRun(prompt, runOptions, {}, { code: 'session-busy', message });
      }
      busy = true;
      return startAgentRun(prompt, runOptions, {
        onSessionId: follow,
        onSettled: () => {
          busy = false;
        },
      });
    },
  };
}
