/** The whole of a finished run, shaped like the Python wrapper's `AgentResult`. */

import type {
  CanonicalEvent,
  FinishEvent,
  TextOmission,
  ToolCallSummary,
  Usage,
} from '@cursor-stream/core/normalize';
import type { BoundedSession } from '@cursor-stream/core/sessions';
import type { AgentRunError } from './agent-outcome.ts';
import type { ProcessExit } from './agent-process.ts';
import type { SessionChange } from './run-events.ts';

/** What a run came to; see {@link AgentRun.collect}. Absent values are `null`. */
export interface AgentResult {
  /** The run ended with a `result` that is not an error, and the process exited cleanly. */
  success: boolean;
  /**
   * The `result`'s text, else every `text-delta` joined: whole up to 131,072 UTF-16 units, and past that its first
   * and last 65,536 joined, as {@link AgentResult.textOmitted} says, so that a run's memory does not grow with its
   * text (the events, when kept, hold all of it).
   */
  text: string;
  /** Length of the whole text {@link AgentResult.text} is taken from, in UTF-16 units. */
  textLength: number;
  /** `null` when `text` is whole; else the units left out, `length` of them at offset `at` of `text`. */
  textOmitted: TextOmission | null;
  sessionId: string | null;
  requestId: string | null;
  durationMs: number | null;
  durationApiMs: number | null;
  usage: Usage | null;
  /** Why the run failed; `null` on success. */
  error: AgentRunError | null;
  /**
   * Every event of the run, in order (the last is its `finish`), when they were kept: `keepEvents`, or `collect()`
   * called before the run was iterated. Empty otherwise.
   */
  events: CanonicalEvent[];
  /**
   * The tool calls of the run's last session, paired by exact id, in order of first sight: the first 1,000
   * (`MAX_TOOL_CALLS_LISTED` of `@cursor-stream/core/sessions`), so that a run's memory does not grow with its number
   * of calls. Those past them are only counted, in {@link AgentResult.toolCallsOmitted}; their events, when kept, hold
   * them whole.
   */
  toolCalls: ToolCallSummary[];
  /** Tool calls of the last session past those listed in {@link AgentResult.toolCalls}, counted by their starts. */
  toolCallsOmitted: number;
  /**
   * Those of the calls counted in {@link AgentResult.toolCallsOmitted} that did not succeed, counted by their
   * completions whose status is neither `success` nor `pending`. None of them is remembered, so a failed completion
   * the agent wrote twice counts twice.
   */
  failedCallsOmitted: number;
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
  /** The events kept (none unless asked). */
  events: readonly CanonicalEvent[];
  /** The run's last session, folded from every event, its tool calls bounded. */
  session: BoundedSession | undefined;
  /** The run's `finish`, its last event. */
  finish: FinishEvent | undefined;
  error: AgentRunError | null;
  exit: ProcessExit;
  stdoutNoise: readonly string[];
  sessionId: string | undefined;
  sessionChange: SessionChange | null;
}

/** Folds a finished run into its {@link AgentResult}. */
export function buildResult(run: RunRecord): AgentResult {
  const { finish } = run;
  const session = run.session?.summary;
  const resultText = session?.resultText ?? null;
  return {
    success: run.error === null,
    text: resultText ?? session?.text ?? '',
    textLength: resultText?.length ?? session?.textLength ?? 0,
    textOmitted: resultText === null ? (session?.textOmitted ?? null) : null,
    sessionId: run.sessionId ?? null,
    requestId: finish?.requestId ?? null,
    durationMs: finish?.durationMs ?? null,
    durationApiMs: finish?.durationApiMs ?? null,
    usage: finish?.usage ?? null,
    error: run.error,
    events: [...run.events],
    toolCalls: session?.toolCalls ?? [],
    toolCallsOmitted: run.session?.toolCallsOmitted ?? 0,
    failedCallsOmitted: run.session?.failedCallsOmitted ?? 0,
    exitCode: run.exit.exitCode,
    signal: run.exit.signal,
    stderr: run.exit.stderr.text,
    stderrTruncated: run.exit.stderr.truncated,
    stdoutNoise: [...run.stdoutNoise],
    sessionChange: run.sessionChange,
  };
}
