/**
 * Writes logs into the three tables through a database-specific {@link TableWriter}: a log's old rows are removed
 * first, then rows go out in batches. Memory is bounded by one batch per table (at most {@link BATCH_ROWS} rows or
 * {@link BATCH_BYTES} of event JSON, whichever comes first) plus the open session, whatever the number or size of
 * the logs.
 */

import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import { emptyTotals, type LogExporter, type LogSink } from '../log-exporter.ts';
import { createSessionCollector, type ExportSession } from '../session-collector.ts';
import { eventRow, sessionRow, toolCallRows } from './rows.ts';
import { EVENTS_TABLE, type Row, SESSIONS_TABLE, type Table, TOOL_CALLS_TABLE } from './table-schema.ts';

/** Rows held per table before they are written. */
export const BATCH_ROWS = 2000;
/** Bytes of row text held per table before they are written. */
export const BATCH_BYTES = 4 * 1024 * 1024;

/** What a database does for the table export. */
export interface TableWriter {
  /** Removes every row of `file` from the three tables. */
  removeLog(file: string): Promise<void>;
  /** Inserts rows into a table; rows hold every column of the table. */
  insert(table: Table, rows: readonly Row[]): Promise<void>;
  /** Releases the connection. */
  close(): Promise<void>;
}

interface Batch {
  table: Table;
  rows: Row[];
  bytes: number;
}

function rowBytes(row: Row): number {
  let bytes = 0;
  for (const key in row) {
    const value = row[key];
    bytes += typeof value === 'string' ? value.length : 8;
  }
  return bytes;
}

/** A {@link LogExporter} over a {@link TableWriter}. */
export function createTableExporter(writer: TableWriter): LogExporter {
  const totals = emptyTotals();
  const batches = [SESSIONS_TABLE, TOOL_CALLS_TABLE, EVENTS_TABLE].map(
    (table): Batch => ({ table, rows: [], bytes: 0 }),
  );
  const [sessions, toolCalls, events] = batches as [Batch, Batch, Batch];

  async function flush(batch: Batch): Promise<void> {
    if (batch.rows.length === 0) return;
    const rows = batch.rows;
    batch.rows = [];
    batch.bytes = 0;
    await writer.insert(batch.table, rows);
  }

  async function add(batch: Batch, row: Row): Promise<void> {
    batch.rows.push(row);
    batch.bytes += rowBytes(row);
    if (batch.rows.length >= BATCH_ROWS || batch.bytes >= BATCH_BYTES) await flush(batch);
  }

  async function addSession(session: ExportSession): Promise<void> {
    totals.sessions++;
    totals.toolCalls += session.toolCalls.length;
    await add(sessions, sessionRow(session));
    for (const row of toolCallRows(session)) await add(toolCalls, row);
  }

  return {
    async openLog(file): Promise<LogSink> {
      await writer.removeLog(file);
      totals.logs++;
      const collector = createSessionCollector({ file, onSession: addSession });
      let seq = 0;
      return {
        observeRecord: (line, record, dialect) => collector.observeRecord(line, record, dialect),
        async push(batch: readonly CanonicalEvent[]) {
          for (const event of batch) {
            await add(events, eventRow(event, { file, seq: seq++, sessionIndex: collector.sessionIndex }));
            await collector.push(event);
          }
          totals.events += batch.length;
        },
        async end() {
          await collector.end();
          for (const batch of batches) await flush(batch);
        },
      };
    },
    async close() {
      for (const batch of batches) await flush(batch);
      await writer.close();
      return { ...totals };
    },
  };
}
