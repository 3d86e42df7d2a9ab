/**
 * The end of an agent's process, as a wrapper records it after the agent's own stream: the WebSocket app closes each
 * run with `{type: "result", exitCode}`, after the CLI's `result` when the CLI wrote one. Such a record ends a session
 * only when one is open: read as a `finish` of its own, it would make an empty session after every run. Its dialect
 * marks the `finish` it reads it as, and the session tracker, which knows whether a session is open, decides.
 */

import type { FinishEvent } from './events/index.ts';

/** Each marked finish, with the sentence that says how the process ended. */
const RUN_EXITS = new WeakMap<FinishEvent, string>();

/** How the process ended, for a person: `the agent exited with code 1`. */
export function runExitSentence(exitCode: number | null): string {
  return exitCode === null
    ? 'the agent ended without an exit code (killed by a signal)'
    : `the agent exited with code ${exitCode}`;
}

/** Marks `finish` as the end of the agent's process, not a result of its own. */
export function markRunExit(finish: FinishEvent, sentence: string): FinishEvent {
  RUN_EXITS.set(finish, sentence);
  return finish;
}

/** The sentence of a finish marked by {@link markRunExit}, or `undefined` for any other finish. */
export function runExitOf(finish: FinishEvent): string | undefined {
  return RUN_EXITS.get(finish);
}
