/**
 * Stream-level anomalies, read off the session reducer's result: a tool result without its call, calls still
 * pending at the end, a session with no `result`, and assistant text that differs from `result.result`.
 */

import type { SessionSummary, SourceLocation } from '@cursor-stream/core/normalize';
import { codePointCount, escapeControls, plural } from '../format/text.ts';
import type { Finding } from './findings.ts';

/** Where things are in the input, gathered from the events while reading. */
export interface StreamLocations {
  /** The `loc` of each session's `finish` event, in session order (`undefined` for a synthesized one). */
  finishes: readonly (SourceLocation | undefined)[];
  /** Byte offset of each line that starts a tool call or tool result, to locate tool findings exactly. */
  toolOffsets: ReadonlyMap<number, number>;
  /** The end of input: its last line and byte count. */
  end: SourceLocation;
}

function describeCall(toolCallId: string, toolName: string): string {
  return `${toolName} call ${escapeControls(JSON.stringify(toolCallId))}`;
}

function toolAnomalies(session: SessionSummary, where: StreamLocations): Finding[] {
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

function endAnomalies(
  session: SessionSummary,
  finish: SourceLocation | undefined,
  where: StreamLocations,
): Finding[] {
  const at = finish ?? where.end;
  if (session.status === 'incomplete') {
    return [{ ...at, code: 'missing-result', message: `${sessionName(session)} ends without a result` }];
  }
  if (session.resultText !== null && session.text !== session.resultText) {
    const lengths = `${plural(codePointCount(session.text), 'character')} vs ${plural(codePointCount(session.resultText), 'character')}`;
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

/** The anomalies of every session, each located at the line that shows it. */
export function streamAnomalies(sessions: readonly SessionSummary[], where: StreamLocations): Finding[] {
  return sessions.flatMap((session, index) => [
    ...toolAnomalies(session, where),
    ...endAnomalies(session, where.finishes[index], where),
  ]);
}
