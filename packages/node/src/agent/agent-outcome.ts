/**
 * How a run ended, as a value: one code per failure path, chosen from the process's exit and what the stream said.
 * The canonical `error` event carries only a message, so the code lives here (and in {@link AgentResult.error}).
 */

import { classifyFailure, type FailureCode, saysNothing } from '@cursor-stream/core/failures';
import type { ProcessExit } from './agent-process.ts';

/**
 * Why a run failed:
 * - `spawn-failed`: no executable could be started (not found on `PATH`, not executable).
 * - `invalid-prompt`: the prompt cannot be passed safely (a NUL character, a subcommand name); nothing was started.
 * - `session-busy`: a session's previous message is still running; nothing was started.
 * - `timeout`: `timeoutMs` elapsed before the result, and the run was stopped.
 * - `cancelled`: `cancel()`, the `AbortSignal`, or the consumer leaving the loop early stopped the run.
 * - `signal`: the process was killed by a signal the run did not send.
 * - `agent-error`: the agent reported an error (a `result` with `is_error`).
 * - `exit-nonzero`: the process exited with a non-zero code (the reason is usually on stderr).
 * - `no-result`: the process exited with 0 but the stream ended without a `result`.
 * - `output-failed`: reading the agent's output failed (the `onStdout` callback threw or rejected, or the output
 *   could not be processed); the run was stopped there, and its events end with what was read before.
 */
export type AgentRunErrorCode =
  | 'spawn-failed'
  | 'invalid-prompt'
  | 'session-busy'
  | 'timeout'
  | 'cancelled'
  | 'signal'
  | 'agent-error'
  | 'exit-nonzero'
  | 'no-result'
  | 'output-failed';

/** A failed run: its code and a sentence for a person. */
export interface AgentRunError {
  code: AgentRunErrorCode;
  message: string;
  /**
   * When the agent itself failed (`agent-error`, `exit-nonzero`, `no-result`): the class of
   * its failure, read from what it said (the failed result's text, its last plain output line, its stderr) by the
   * table of the CLI's sentences: `trust-required`, `auth`, `usage-limit`, ... or `unknown`.
   */
  failure?: FailureCode;
}

/** What the stream told about its end, for {@link classifyRun}. */
export interface StreamEnd {
  /** A `finish` from a `result` arrived (not a synthesized `incomplete` one). */
  sawResult: boolean;
  /** The agent reported an error: its `result` was one. */
  agentFailed: boolean;
  /**
   * The agent's own sentence for its error: the error `result`'s text, else the nearest non-JSON stdout line before
   * it (`RetriableError: [invalid_argument] unknown option '--system-prompt'`).
   */
  agentError: string | undefined;
  /** Non-JSON stdout lines (excerpts), e.g. `Press any key to sign in...`, oldest first. */
  stdoutNoise: readonly string[];
}

/** A sentence for something thrown, which may be anything (even a value whose conversion throws). */
export function describeThrown(thrown: unknown): string {
  try {
    return thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  } catch {
    return 'an exception that cannot be described';
  }
}

/** What a failed `result` says when neither it, nor the output around it, nor stderr has a sentence. */
const NO_MESSAGE = 'The agent reported an error without a message.';

/** Longest reason quoted in an error message; the whole text stays in the result's `stderr`. */
const REASON_LENGTH = 300;

/** A line that names an error by its class (`Error: …`, `ConnectError: …`, `fatal: …`), as uncaught errors print. */
const ERROR_LINE = /^(?:[A-Za-z_$][\w$.]*)?(?:Error|Exception)\b|^fatal\b/i;

/**
 * The agent's sentence for a failure, among its non-JSON stdout lines (last first: the CLI prints its failure there,
 * right before it stops) and then its stderr lines: the first in words the CLI is known to fail with (a class other
 * than `unknown`), else the first that names an error, else the first that says anything. A stack frame, the site of
 * an uncaught error or the update notice never is one, though they may come first.
 */
export function reasonOf(stderr: string, stdoutNoise: readonly string[]): string | undefined {
  const lines = [...stdoutNoise]
    .reverse()
    .concat(stderr.split('\n'))
    .map((candidate) => candidate.trim())
    .filter((candidate) => candidate.length > 0 && !saysNothing(candidate));
  const line =
    lines.find((candidate) => classifyFailure(candidate) !== 'unknown') ??
    lines.find((candidate) => ERROR_LINE.test(candidate)) ??
    lines[0];
  return line?.slice(0, REASON_LENGTH);
}

function withReason(message: string, reason: string | undefined): string {
  return reason === undefined ? `${message}.` : `${message}: ${reason}`;
}

function spawnFailure(exit: ProcessExit): AgentRunError {
  const tried = exit.spawnFailures.map(
    (failure) => `${failure.binary} (${failure.errno ?? failure.message})`,
  );
  return { code: 'spawn-failed', message: `Could not start the agent: tried ${tried.join(', ')}.` };
}

/**
 * The class of the agent's failure: its own sentence first (the failed result, the last plain output line), then all
 * of its standard error, whose first line may be a banner (`⚠ Workspace Trust Required`).
 */
function failureClassOf(exit: ProcessExit, stream: StreamEnd): FailureCode {
  const said = [stream.agentError, ...[...stream.stdoutNoise].reverse(), exit.stderr.text];
  for (const text of said) {
    const code = classifyFailure(text);
    if (code !== 'unknown') return code;
  }
  return 'unknown';
}

/** The failure of a run, or `null` for a success, with the class of the agent's failure when it failed itself. */
export function classifyRun(exit: ProcessExit, stream: StreamEnd): AgentRunError | null {
  const error = runError(exit, stream);
  if (error === null) return null;
  switch (error.code) {
    case 'agent-error':
    case 'exit-nonzero':
    case 'no-result':
      return { ...error, failure: failureClassOf(exit, stream) };
    default:
      return error;
  }
}

/** The failure of a run, or `null` for a success. The supervisor's own stops come first: they explain the rest. */
function runError(exit: ProcessExit, stream: StreamEnd): AgentRunError | null {
  const reason = reasonOf(exit.stderr.text, stream.stdoutNoise);
  const name = exit.binary ?? 'the agent';
  // Output that was not read makes every other conclusion about the run unsure: this one is said first.
  if (exit.outputFailure !== undefined) {
    return {
      code: 'output-failed',
      message: `Reading the output of ${name} failed, so the run was stopped: ${exit.outputFailure}`,
    };
  }
  // A process stopped once its result came, by the grace after it or by the run's time running out, is one that
  // would not exit: the result says how the run ended.
  const stoppedAfterResult =
    stream.sawResult && (exit.stopReason === 'after-result' || exit.stopReason === 'timeout');
  if (exit.stopReason === 'timeout' && !stoppedAfterResult)
    return { code: 'timeout', message: withReason(`${name} timed out`, reason) };
  if (exit.stopReason === 'cancelled')
    return { code: 'cancelled', message: `The run of ${name} was cancelled.` };
  if (exit.binary === undefined) return spawnFailure(exit);
  if (stream.agentFailed) {
    const message = stream.agentError ?? reasonOf(exit.stderr.text, []) ?? NO_MESSAGE;
    return { code: 'agent-error', message };
  }
  if (stoppedAfterResult) return null;
  if (exit.signal !== null)
    return { code: 'signal', message: withReason(`${name} was killed by ${exit.signal}`, reason) };
  if (exit.exitCode !== 0) {
    return { code: 'exit-nonzero', message: withReason(`${name} exited with code ${exit.exitCode}`, reason) };
  }
  if (!stream.sawResult) {
    return { code: 'no-result', message: withReason(`${name} exited without a result`, reason) };
  }
  return null;
}
