/**
 * `@cursor-stream/export`: what every export format shares. The formats are separate entries, each loading its
 * heavy dependency only when used: `@cursor-stream/export/otlp` (OpenTelemetry GenAI traces),
 * `@cursor-stream/export/duckdb` and `@cursor-stream/export/clickhouse` (the tables `sessions`, `tool_calls`,
 * `events`).
 */

export { type RecordTimes, recordTimes } from '@cursor-stream/core/normalize';
export {
  type ExportError,
  ExportFailure,
  type ExportTotals,
  type ExportWarning,
  type ExportWarningListener,
  emptyTotals,
  type LogExporter,
  type LogSink,
} from './log-exporter.ts';
export { type OtlpEnvironmentEndpoint, otlpTracesEndpointFromEnv } from './otlp-endpoint.ts';
export {
  createSessionCollector,
  type ExportSession,
  type ExportToolCall,
  MAX_EXPORTED_TOOL_CALLS,
  MAX_SESSION_CONTENT_CHARS,
  type SessionCollector,
  type SessionCollectorOptions,
} from './session-collector.ts';
export { type ColumnChange, fitRow } from './tables/column-values.ts';
export {
  BATCH_BYTES,
  BATCH_ROWS,
  createTableExporter,
  type TableExportOptions,
  type TableWriter,
} from './tables/table-export.ts';
export {
  type Column,
  type ColumnType,
  EVENTS_TABLE,
  type Row,
  SESSIONS_TABLE,
  TABLES,
  type Table,
  TOOL_CALLS_TABLE,
} from './tables/table-schema.ts';
export { createTableSql, EXAMPLE_QUERIES, quoteIdentifier, type SqlEngine } from './tables/table-sql.ts';
