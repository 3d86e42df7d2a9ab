/**
 * Stream-level anomalies, read off each session's summary as it ends: a tool result without its call, calls still
 * pending at the end, a session with no `result`, and assistant text that differs from `result.result`.
 */

import type { SessionSummary, SourceLocation } from '@cursor-stream/core/normalize';
import { escapeControls, plural } from '@cursor-stream/core/text';
import type { BoundedSession } from '../sessions/bounded-sessions.ts';
import type { Finding } from './findings.ts';

/** Where things are in the input, gathered from the session's events while reading. */
export interface SessionLocations {
  /** Byte offset of each line that starts a tool call or tool result, to locate tool findings exactly. */
  toolOffsets: ReadonlyMap<number, number>;
  /** Where the session ended: the event after it, or the end of input (its last line and byte count). */
  end: SourceLocation;
}

function describeCall(toolCallId: string, toolName: string): string {
  return `${toolName} call ${escapeControls(JSON.stringify(toolCallId))}`;
}

function toolAnomalies(session: SessionSummary, where: SessionLocations): Finding[] {
  const findings: Finding[] = [];
  for (const call of session.toolCalls) {
    if (call.orphan && call.endLine !== null) {
      findings.push({
        line: call.endLine,
        offset: where.toolOffsets.get(call.endLine) ?? where.end.offset,
        code: 'orphan-tool-result',
        message: `result of ${describeCall(call.toolCallId, call.toolName)} has no matching tool call`,
      });
    }
    if (call.status === 'pending') {
      const line = call.startLine ?? where.end.line;
      findings.push({
        line,
        offset: where.toolOffsets.get(line) ?? where.end.offset,
        code: 'pending-tool-call',
        message: `${describeCall(call.toolCallId, call.toolName)} never completed`,
      });
    }
  }
  return findings;
}

function sessionName(session: SessionSummary): string {
  return session.sessionId === null ? 'the session' : `session ${escapeControls(session.sessionId)}`;
}

function endAnomalies(bounded: BoundedSession, where: SessionLocations): Finding[] {
  const { summary: session } = bounded;
  const at = bounded.finishLoc ?? where.end;
  if (session.status === 'incomplete') {
    return [{ ...at, code: 'missing-result', message: `${sessionName(session)} ends without a result` }];
  }
  if (session.resultText !== null && session.textMatchesResult === false) {
    const lengths = `${plural(session.textLength, 'character')} vs ${plural(session.resultText.length, 'character')}`;
    return [
      {
        ...at,
        code: 'text-mismatch',
        message: `the assistant text of ${sessionName(session)} differs from its result text (${lengths})`,
      },
    ];
  }
  return [];
}

/** The anomalies of one session, each located at the line that shows it. */
export function sessionAnomalies(session: BoundedSession, where: SessionLocations): Finding[] {
  return [...toolAnomalies(session.summary, where), ...endAnomalies(session, where)];
}
