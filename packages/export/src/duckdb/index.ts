/**
 * `@cursor-stream/export/duckdb`: logs into a DuckDB database file through `@duckdb/node-api`, an optional peer
 * dependency loaded only here. Each log is written in one transaction that first removes its old rows, so a
 * re-export replaces them and a failed one leaves the previous rows in place.
 */

import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import type { ExportWarningListener, LogExporter } from '../log-exporter.ts';
import { importOptional } from '../optional-package.ts';
import { importPeer } from '../optional-peer.ts';
import { DUCKDB_PEERS } from '../optional-peers.ts';
import { createTableExporter, type TableWriter } from '../tables/table-export.ts';
import { type Column, type Row, TABLES, type Table } from '../tables/table-schema.ts';
import { createTableSql, quoteIdentifier } from '../tables/table-sql.ts';

/** Options of {@link createDuckDbExporter}. */
export interface DuckDbExportOptions {
  /** The database file, created when missing; `:memory:` for a database in memory. */
  path: string;
  /** Hears of each value changed to fit its column or left out; see `createTableExporter`. */
  onWarning?: ExportWarningListener;
}

function appendValue(appender: DuckDBAppender, column: Column, value: Row[string] | undefined): void {
  if (value === null || value === undefined) appender.appendNull();
  else if (column.type === 'string') appender.appendVarchar(String(value));
  else if (column.type === 'flag') appender.appendUTinyInt(Number(value));
  else if (column.type === 'int32') appender.appendInteger(Number(value));
  // Rows are fitted to their columns first (see `fitRow`): an integer here is a safe integer.
  else appender.appendBigInt(BigInt(value));
}

function duckDbWriter(connection: DuckDBConnection, close: () => void): TableWriter {
  let inTransaction = false;
  async function commit(): Promise<void> {
    if (inTransaction) await connection.run('COMMIT');
    inTransaction = false;
  }
  return {
    async removeLog(file) {
      await commit();
      await connection.run('BEGIN TRANSACTION');
      inTransaction = true;
      for (const table of TABLES) {
        await connection.run(`DELETE FROM ${quoteIdentifier(table.name)} WHERE file = $1`, [file]);
      }
    },
    async insert(table: Table, rows) {
      const appender = await connection.createAppender(table.name);
      try {
        for (const row of rows) {
          for (const column of table.columns) appendValue(appender, column, row[column.name]);
          appender.endRow();
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
    },
    async close() {
      try {
        await commit();
      } finally {
        close();
      }
    },
  };
}

/**
 * Opens (or creates) the database, creates the tables `sessions`, `tool_calls` and `events` when missing, and
 * returns an exporter writing into them. Fails with `missing-package` when `@duckdb/node-api` is not installed.
 */
export async function createDuckDbExporter(options: DuckDbExportOptions): Promise<LogExporter> {
  const { DuckDBInstance } = await importOptional(DUCKDB_PEERS.join(' '), 'duckdb', () =>
    importPeer('@duckdb/node-api', () => import('@duckdb/node-api')),
  );
  const instance = await DuckDBInstance.create(options.path);
  const connection = await instance.connect();
  for (const table of TABLES) await connection.run(createTableSql('duckdb', table));
  return createTableExporter(
    duckDbWriter(connection, () => {
      connection.closeSync();
      instance.closeSync();
    }),
    options.onWarning === undefined ? {} : { onWarning: options.onWarning },
  );
}
