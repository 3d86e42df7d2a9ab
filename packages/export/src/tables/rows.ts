/** Rows of the three tables, from exported sessions and canonical events. */

import { type CanonicalEvent, readRecordTime } from '@cursor-stream/core/normalize';
import { jsonText } from '../json-text.ts';
import type { ExportSession } from '../session-collector.ts';
import type { Row } from './table-schema.ts';

/** The UTC date of a session's start; its times were read through `readRecordTime`, which only gives dates. */
function utcDay(ms: number | null): string | null {
  const time = readRecordTime(ms, 'started_at_ms');
  return time?.ok === true ? new Date(time.ms).toISOString().slice(0, 10) : null;
}

/** The `sessions` row of a session. */
export function sessionRow(session: ExportSession): Row {
  const usage = session.usage;
  return {
    file: session.file,
    session_index: session.index,
    session_id: session.sessionId,
    dialect: session.dialect,
    model: session.model,
    status: session.status,
    failure: session.failure?.message ?? null,
    started_at_ms: session.startedAtMs,
    ended_at_ms: session.endedAtMs,
    day: utcDay(session.startedAtMs),
    duration_ms: session.durationMs,
    input_tokens: usage?.inputTokens ?? null,
    output_tokens: usage?.outputTokens ?? null,
    cache_read_tokens: usage?.cacheReadTokens ?? null,
    cache_write_tokens: usage?.cacheWriteTokens ?? null,
    tool_calls: session.toolCalls.length,
    failed_tool_calls: session.toolCalls.filter((call) => call.isError).length,
    first_line: session.firstLine,
    last_line: session.lastLine,
  };
}

/** The `tool_calls` rows of a session, in order of first sight. */
export function toolCallRows(session: ExportSession): Row[] {
  return session.toolCalls.map((call, callIndex) => ({
    file: session.file,
    session_index: session.index,
    call_index: callIndex,
    session_id: session.sessionId,
    model: session.model,
    tool_call_id: call.toolCallId,
    tool_name: call.toolName,
    provider_tool_name: call.providerToolName,
    status: call.status,
    is_error: call.isError ? 1 : 0,
    orphan: call.orphan ? 1 : 0,
    started_at_ms: call.startedAtMs,
    completed_at_ms: call.completedAtMs,
    duration_ms: call.durationMs,
    start_line: call.startLine,
    end_line: call.endLine,
  }));
}

/** Where an event stands: its log, position, and session. */
export interface EventPlace {
  file: string;
  seq: number;
  sessionIndex: number;
}

/** The `events` row of a canonical event. */
export function eventRow(event: CanonicalEvent, place: EventPlace): Row {
  return {
    file: place.file,
    seq: place.seq,
    line: event.loc?.line ?? null,
    offset: event.loc?.offset ?? null,
    session_index: place.sessionIndex,
    session_id: event.sessionId ?? null,
    type: event.type,
    event: jsonText(event),
  };
}
