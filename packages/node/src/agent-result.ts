/** The whole of a finished run, shaped like the Python wrapper's `AgentResult`. */

import {
  type CanonicalEvent,
  type FinishEvent,
  reduceSessions,
  type ToolCallSummary,
  type Usage,
} from '@cursor-stream/core/normalize';
import type { AgentRunError } from './agent-outcome.ts';
import type { ProcessExit } from './agent-process.ts';
import type { SessionChange } from './run-events.ts';

/** What a run came to; see {@link AgentRun.collect}. Absent values are `null`. */
export interface AgentResult {
  /** The run ended with a `result` that is not an error, and the process exited cleanly. */
  success: boolean;
  /** The `result`'s text, else every `text-delta` joined. */
  text: string;
  sessionId: string | null;
  requestId: string | null;
  durationMs: number | null;
  durationApiMs: number | null;
  usage: Usage | null;
  /** Why the run failed; `null` on success. */
  error: AgentRunError | null;
  /** Every event of the run, in order; the last is its `finish`. */
  events: CanonicalEvent[];
  /** The tool calls, paired by exact id. */
  toolCalls: ToolCallSummary[];
  exitCode: number | null;
  /** The signal that ended the process, whoever sent it. */
  signal: NodeJS.Signals | null;
  /** What the process wrote on stderr, bounded (see `maxCaptureBytes`). */
  stderr: string;
  stderrTruncated: boolean;
  /** Lines of stdout that were not JSON (excerpts), e.g. `Press any key to sign in...`. */
  stdoutNoise: string[];
  /** Set when `--resume` named a session the agent did not continue: it started another one. */
  sessionChange: SessionChange | null;
}

/** What {@link buildResult} folds together. */
export interface RunRecord {
  events: readonly CanonicalEvent[];
  error: AgentRunError | null;
  exit: ProcessExit;
  stdoutNoise: readonly string[];
  sessionId: string | undefined;
  sessionChange: SessionChange | null;
}

/** Folds a finished run into its {@link AgentResult}. */
export function buildResult(run: RunRecord): AgentResult {
  const events = [...run.events];
  // The run's finish is its last event, so the last session is the run's (noise before it opens none).
  const session = reduceSessions(events).at(-1);
  const finish = events.findLast((event): event is FinishEvent => event.type === 'finish');
  return {
    success: run.error === null,
    text: session?.resultText ?? session?.text ?? '',
    sessionId: run.sessionId ?? null,
    requestId: finish?.requestId ?? null,
    durationMs: finish?.durationMs ?? null,
    durationApiMs: finish?.durationApiMs ?? null,
    usage: finish?.usage ?? null,
    error: run.error,
    events,
    toolCalls: session?.toolCalls ?? [],
    exitCode: run.exit.exitCode,
    signal: run.exit.signal,
    stderr: run.exit.stderr.text,
    stderrTruncated: run.exit.stderr.truncated,
    stdoutNoise: [...run.stdoutNoise],
    sessionChange: run.sessionChange,
  };
}
