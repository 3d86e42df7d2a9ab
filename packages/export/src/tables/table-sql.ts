/** The tables' SQL for each engine, and the queries the documentation shows. */

import type { Column, ColumnType, Table } from './table-schema.ts';

/** The engines the table export writes to. */
export type SqlEngine = 'duckdb' | 'clickhouse';

const TYPES: Record<SqlEngine, Record<ColumnType, string>> = {
  duckdb: { string: 'VARCHAR', int64: 'BIGINT', int32: 'INTEGER', flag: 'UTINYINT' },
  clickhouse: { string: 'String', int64: 'Int64', int32: 'Int32', flag: 'UInt8' },
};

/** A quoted identifier; `offset` is a keyword, and both engines take double quotes. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function columnSql(engine: SqlEngine, column: Column): string {
  const type = TYPES[engine][column.type];
  if (engine === 'clickhouse')
    return `${quoteIdentifier(column.name)} ${column.nullable ? `Nullable(${type})` : type}`;
  return `${quoteIdentifier(column.name)} ${type}${column.nullable ? '' : ' NOT NULL'}`;
}

/** `CREATE TABLE IF NOT EXISTS` for a table; ClickHouse's is a plain `MergeTree` sorted by the table's key. */
export function createTableSql(engine: SqlEngine, table: Table): string {
  const columns = table.columns.map((column) => columnSql(engine, column)).join(', ');
  const create = `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(table.name)} (${columns})`;
  if (engine === 'duckdb') return create;
  return `${create} ENGINE = MergeTree() ORDER BY (${table.orderBy.map(quoteIdentifier).join(', ')})`;
}

/**
 * The queries the documentation shows, written in the SQL both engines share, so that a DuckDB file and a
 * ClickHouse server give the same numbers.
 */
export const EXAMPLE_QUERIES = {
  /** The twenty slowest tool calls. */
  slowestTools: `SELECT tool_name, model, duration_ms, file, start_line
FROM tool_calls
WHERE duration_ms IS NOT NULL
ORDER BY duration_ms DESC, file, start_line
LIMIT 20`,
  /** Calls, failures and the failure rate (percent) per tool and model. */
  failureRate: `SELECT tool_name, model, count(*) AS calls, sum(is_error) AS failed,
  round(100.0 * sum(is_error) / count(*), 1) AS failed_percent
FROM tool_calls
GROUP BY tool_name, model
ORDER BY calls DESC, tool_name, model`,
  /** Sessions and tokens per UTC day of the session's start. */
  tokensPerDay: `SELECT day, count(*) AS sessions, sum(input_tokens) AS input_tokens,
  sum(output_tokens) AS output_tokens, sum(cache_read_tokens) AS cache_read_tokens,
  sum(cache_write_tokens) AS cache_write_tokens
FROM sessions
GROUP BY day
ORDER BY day`,
} as const;
