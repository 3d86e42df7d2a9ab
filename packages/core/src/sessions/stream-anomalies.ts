/**
 * Stream-level anomalies, read off each session's summary as it ends: a tool result without its call, calls still
 * pending at the end, a session with no `result`, and assistant text that differs from `result.result`.
 */

import type { SourceLocation } from '../events/index.ts';
import { escapeControls, plural } from '../text/index.ts';
import type { BoundedSession } from './bounded-sessions.ts';
import type { SessionSummary } from './session-reducer.ts';

/** What is odd about a session as a whole rather than one of its records. */
export type StreamAnomalyCode =
  | 'orphan-tool-result'
  | 'pending-tool-call'
  | 'missing-result'
  | 'text-mismatch';

/** One anomaly of a session, located in the input. */
export interface StreamAnomaly {
  /** 1-based physical line of the record that shows it. */
  line: number;
  /** Byte offset of that record, or of the end of input for a session that ends without a result. */
  offset: number;
  code: StreamAnomalyCode;
  /** For a person, with the call or session it is about. */
  message: string;
}

/** Where things are in the input, gathered from the session's events while reading. */
export interface SessionLocations {
  /** Byte offset of each line that starts a tool call or tool result, to locate tool anomalies exactly. */
  toolOffsets: ReadonlyMap<number, number>;
  /** Where the session ended: the event after it, or the end of input (its last line and byte count). */
  end: SourceLocation;
}

function describeCall(toolCallId: string, toolName: string): string {
  return `${toolName} call ${escapeControls(JSON.stringify(toolCallId))}`;
}

function toolAnomalies(session: SessionSummary, where: SessionLocations): StreamAnomaly[] {
  const anomalies: StreamAnomaly[] = [];
  for (const call of session.toolCalls) {
    if (call.orphan && call.endLine !== null) {
      anomalies.push({
        line: call.endLine,
        offset: where.toolOffsets.get(call.endLine) ?? where.end.offset,
        code: 'orphan-tool-result',
        message: `result of ${describeCall(call.toolCallId, call.toolName)} has no matching tool call`,
      });
    }
    if (call.status === 'pending') {
      const line = call.startLine ?? where.end.line;
      anomalies.push({
        line,
        offset: where.toolOffsets.get(line) ?? where.end.offset,
        code: 'pending-tool-call',
        message: `${describeCall(call.toolCallId, call.toolName)} never completed`,
      });
    }
  }
  return anomalies;
}

function sessionName(session: SessionSummary): string {
  return session.sessionId === null ? 'the session' : `session ${escapeControls(session.sessionId)}`;
}

function endAnomalies(bounded: BoundedSession, where: SessionLocations): StreamAnomaly[] {
  const { summary: session } = bounded;
  // The location's fields named, not spread in: a spread first takes V8's slow path, microseconds per session.
  const at = bounded.finishLoc ?? where.end;
  if (session.status === 'incomplete') {
    // The CLI fails without a result: the class of its last sentence says what kind of failure it was.
    const code = session.failure?.code ?? 'unknown';
    const kind = code === 'unknown' ? '' : ` (failure: ${code})`;
    return [
      {
        line: at.line,
        offset: at.offset,
        code: 'missing-result',
        message: `${sessionName(session)} ends without a result${kind}`,
      },
    ];
  }
  if (session.resultText !== null && session.textMatchesResult === false) {
    const lengths = `${plural(session.textLength, 'character')} vs ${plural(session.resultText.length, 'character')}`;
    return [
      {
        line: at.line,
        offset: at.offset,
        code: 'text-mismatch',
        message: `the assistant text of ${sessionName(session)} differs from its result text (${lengths})`,
      },
    ];
  }
  return [];
}

/** The anomalies of one session, each located at the line that shows it. */
export function sessionAnomalies(session: BoundedSession, where: SessionLocations): StreamAnomaly[] {
  return [...toolAnomalies(session.summary, where), ...endAnomalies(session, where)];
}
