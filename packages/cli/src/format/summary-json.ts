/** The `summary --json` document: its shape is part of the CLI's contract (see the README). */

import type { SessionSummary, ToolCallSummary } from '@cursor-stream/core/normalize';

/** One tool call in `summary --json`. */
export interface SummaryToolCallJson {
  toolCallId: string;
  toolName: string;
  status: string;
  startLine: number | null;
  endLine: number | null;
  durationMs: number | null;
  /** True for a completion whose start the log does not hold. */
  orphan: boolean;
}

/** One session in `summary --json`. */
export interface SummarySessionJson {
  sessionId: string | null;
  dialect: string | null;
  model: string | null;
  status: SessionSummary['status'];
  text: string;
  resultText: string | null;
  toolCalls: SummaryToolCallJson[];
  counts: SessionSummary['counts'];
  durationMs: number | null;
  usage: SessionSummary['usage'];
}

/** A line that produced no event, in `summary --json`. */
export interface SummaryInvalidLineJson {
  line: number;
  offset: number;
  code: string;
}

/** The whole `summary --json` document. */
export interface SummaryJson {
  sessions: SummarySessionJson[];
  invalidLines: SummaryInvalidLineJson[];
  /** Invalid lines past the first {@link MAX_INVALID_LINES_LISTED}, counted but not listed; absent when none. */
  invalidLinesOmitted?: number;
  /** Physical lines of the input. */
  lines: number;
  /** Bytes of the input (after decompression). */
  bytes: number;
}

function toolCallJson(call: ToolCallSummary): SummaryToolCallJson {
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    status: call.status,
    startLine: call.startLine,
    endLine: call.endLine,
    durationMs: call.durationMs,
    orphan: call.orphan,
  };
}

/**
 * A session as `summary --json` prints it: exactly the documented keys, in their documented order.
 *
 * @param fallbackDialect - The stream's dialect, for a session the reducer could not name one for.
 */
export function sessionJson(session: SessionSummary, fallbackDialect: string | null): SummarySessionJson {
  return {
    sessionId: session.sessionId,
    dialect: session.dialect ?? fallbackDialect,
    model: session.model,
    status: session.status,
    text: session.text,
    resultText: session.resultText,
    toolCalls: session.toolCalls.map(toolCallJson),
    counts: session.counts,
    durationMs: session.durationMs,
    usage: session.usage,
  };
}

/** Invalid lines listed in the JSON summary; past it they are counted, so memory stays bounded on a log of garbage. */
export const MAX_INVALID_LINES_LISTED = 10_000;

/** Invalid lines of a summary, listed or not. */
export function invalidLineCount(summary: SummaryJson): number {
  return summary.invalidLines.length + (summary.invalidLinesOmitted ?? 0);
}
