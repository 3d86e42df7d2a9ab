/**
 * The three tables every database export writes, defined once for DuckDB and ClickHouse: `sessions`, `tool_calls`
 * and `events`. Types are the ones both engines share (ClickHouse back to 18.16): integers, strings, `UInt8` flags
 * instead of booleans, and times as milliseconds since the epoch with the UTC `day` alongside, so the same SQL
 * answers on both.
 */

/** A column's value type. */
export type ColumnType = 'string' | 'int64' | 'int32' | 'flag';

/** One column: its name, its type, and whether it may be null. */
export interface Column {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
  /** What it holds, for the documentation. */
  readonly description: string;
}

/** One table: its name, columns, and the columns ClickHouse sorts by (never nullable). */
export interface Table {
  readonly name: 'sessions' | 'tool_calls' | 'events';
  readonly columns: readonly Column[];
  readonly orderBy: readonly string[];
}

function column(name: string, type: ColumnType, nullable: boolean, description: string): Column {
  return { name, type, nullable, description };
}

const FILE = column(
  'file',
  'string',
  false,
  'the log as the exporter was given it (the CLI: its absolute path); re-exporting it replaces its rows',
);
const SESSION_INDEX = column('session_index', 'int32', false, '0-based position of the session in the log');
const SESSION_ID = column('session_id', 'string', true, "the agent's session id");

/** One row per session. */
export const SESSIONS_TABLE: Table = {
  name: 'sessions',
  orderBy: ['file', 'session_index'],
  columns: [
    FILE,
    SESSION_INDEX,
    SESSION_ID,
    column('dialect', 'string', true, 'the dialect that read the log'),
    column('model', 'string', true, 'the model display name'),
    column('status', 'string', false, 'success, error, or incomplete (no result)'),
    column('failure', 'string', true, "the agent's own sentence on why it failed"),
    column('started_at_ms', 'int64', true, 'earliest record time of the session (ms since the epoch)'),
    column('ended_at_ms', 'int64', true, 'latest record time of the session'),
    column('day', 'string', true, 'UTC date of started_at_ms, YYYY-MM-DD'),
    column('duration_ms', 'int64', true, 'as the result reports it'),
    column('input_tokens', 'int64', true, 'from result.usage'),
    column('output_tokens', 'int64', true, 'from result.usage'),
    column('cache_read_tokens', 'int64', true, 'from result.usage'),
    column('cache_write_tokens', 'int64', true, 'from result.usage'),
    column('tool_calls', 'int32', false, 'tool calls in the session'),
    column('failed_tool_calls', 'int32', false, 'tool calls completed with a status other than success'),
    column('first_line', 'int64', true, 'line of its first event'),
    column('last_line', 'int64', true, 'line of its last event'),
  ],
};

/** One row per tool call. */
export const TOOL_CALLS_TABLE: Table = {
  name: 'tool_calls',
  orderBy: ['file', 'session_index', 'call_index'],
  columns: [
    FILE,
    SESSION_INDEX,
    column('call_index', 'int32', false, '0-based position of the call in its session (first sight)'),
    SESSION_ID,
    column('model', 'string', true, "the session's model"),
    column('tool_call_id', 'string', false, 'the id exactly as sent, newlines kept'),
    column('tool_name', 'string', false, 'canonical tool name (shell, read, edit, mcp, ...)'),
    column('provider_tool_name', 'string', true, 'the name the log sent (shellToolCall, ...)'),
    column('status', 'string', false, 'the result arm (success, failure, rejected, ...) or pending'),
    column('is_error', 'flag', false, '1 when completed with a status other than success'),
    column('orphan', 'flag', false, '1 for a completion whose start never came'),
    column('started_at_ms', 'int64', true, 'startedAtMs, else the start record time'),
    column('completed_at_ms', 'int64', true, 'completedAtMs, else the completion record time'),
    column('duration_ms', 'int64', true, 'completedAtMs - startedAtMs, duration_ms, or the record times'),
    column('start_line', 'int64', true, 'line of the tool-call record'),
    column('end_line', 'int64', true, 'line of the tool-result record'),
  ],
};

/** One row per canonical event. */
export const EVENTS_TABLE: Table = {
  name: 'events',
  orderBy: ['file', 'seq'],
  columns: [
    FILE,
    column('seq', 'int64', false, '0-based position of the event in the log'),
    column('line', 'int64', true, 'line where its record starts (null on synthesized events)'),
    column('offset', 'int64', true, 'byte offset where its record starts'),
    SESSION_INDEX,
    SESSION_ID,
    column('type', 'string', false, 'the canonical event type'),
    column('event', 'string', false, 'the canonical event as JSON'),
  ],
};

/** The three tables, in the order they are written. */
export const TABLES = [SESSIONS_TABLE, TOOL_CALLS_TABLE, EVENTS_TABLE] as const;

/** A row: column name to value (`null` for absent values). */
export type Row = Record<string, string | number | null>;
