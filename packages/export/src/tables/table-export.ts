/**
 * Writes logs into the three tables through a database-specific {@link TableWriter}: a log's old rows are removed
 * first, then rows go out in batches. Memory is bounded by one batch per table (at most {@link BATCH_ROWS} rows or
 * {@link BATCH_BYTES} of event JSON, whichever comes first) plus the open session, whatever the number or size of
 * the logs.
 */

import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import { type ExportWarningListener, emptyTotals, type LogExporter, type LogSink } from '../log-exporter.ts';
import { createSessionCollector, type ExportSession } from '../session-collector.ts';
import { fitRow, lineOfColumn, type RowLines } from './column-values.ts';
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

/** Options of {@link createTableExporter}. */
export interface TableExportOptions {
  /**
   * Hears of each value changed to fit its column or left out (see `column-values.ts` and the session collector's
   * `onProblem`); the row is written either way.
   */
  onWarning?: ExportWarningListener;
}

/**
 * A {@link LogExporter} over a {@link TableWriter}. Every row is fitted to its table's column types first, so that
 * no value of a log fails an insert and every engine stores the same rows.
 */
export function createTableExporter(writer: TableWriter, options: TableExportOptions = {}): LogExporter {
  const onWarning = options.onWarning;
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

  async function add(batch: Batch, row: Row, file: string, lines: RowLines): Promise<void> {
    const fitted = fitRow(batch.table, row);
    for (const change of fitted.changes)
      onWarning?.({ file, line: lineOfColumn(change.column, lines), message: change.message });
    batch.rows.push(fitted.row);
    batch.bytes += rowBytes(fitted.row);
    if (batch.rows.length >= BATCH_ROWS || batch.bytes >= BATCH_BYTES) await flush(batch);
  }

  async function addSession(session: ExportSession): Promise<void> {
    totals.sessions++;
    totals.toolCalls += session.toolCalls.length;
    const lines = { start: session.firstLine, end: session.finishLine ?? session.lastLine };
    await add(sessions, sessionRow(session), session.file, lines);
    const calls = toolCallRows(session);
    for (const [index, row] of calls.entries()) {
      const call = session.toolCalls[index];
      await add(toolCalls, row, session.file, { start: call?.startLine ?? null, end: call?.endLine ?? null });
    }
  }

  return {
    async openLog(file): Promise<LogSink> {
      await writer.removeLog(file);
      totals.logs++;
      const collector = createSessionCollector({
        file,
        onSession: addSession,
        onProblem: (line, message) => onWarning?.({ file, line, message }),
      });
      let seq = 0;
      return {
        observeRecord: (line, record, dialect, offset) =>
          collector.observeRecord(line, record, dialect, offset),
        async push(batch: readonly CanonicalEvent[]) {
          for (const event of batch) {
            const line = event.loc?.line ?? null;
            const row = eventRow(event, { file, seq: seq++, sessionIndex: collector.sessionIndex });
            await add(events, row, file, { start: line, end: line });
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
