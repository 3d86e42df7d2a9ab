/**
 * Values as both engines store them. A row is fitted to its table's column types before any engine sees it, so one
 * hostile value (`1e308`, a fractional duration, a lone surrogate) never fails an insert, and DuckDB and ClickHouse
 * store the same rows for the same logs:
 *
 * - integer columns (`int64`, `int32`, `flag`): a number with a fraction is truncated toward zero; a number outside
 *   the column's range (for `int64`, past ±(2^53 - 1), the integers a JavaScript number and a JSON reader hold
 *   exactly) is stored as NULL, or clamped to the range in a column that cannot be NULL;
 * - string columns: each lone surrogate (UTF-16 that no UTF-8 text holds) is replaced by U+FFFD.
 *
 * Each change is said once, with the column, the value, and what was stored instead.
 */

import { wellFormedText } from '../well-formed-text.ts';
import type { Column, ColumnType, Row, Table } from './table-schema.ts';

const RANGES: Record<Exclude<ColumnType, 'string'>, readonly [number, number]> = {
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  flag: [0, 255],
};

/** A value changed to fit its column, and why. */
export interface ColumnChange {
  column: string;
  message: string;
}

function integerValue(table: Table, column: Column, value: number, changes: ColumnChange[]): number | null {
  const [min, max] = RANGES[column.type as Exclude<ColumnType, 'string'>];
  const name = `${table.name}.${column.name}`;
  const whole = Math.trunc(value);
  if (Number.isFinite(whole) && whole >= min && whole <= max) {
    if (whole !== value) {
      changes.push({
        column: column.name,
        message: `${name} ${value} is not a whole number; stored as ${whole}`,
      });
    }
    // -0 is written as 0 by both engines' readers, but JSON text would say `0` and a BigInt `0n`: make it plain.
    return whole === 0 ? 0 : whole;
  }
  if (column.nullable) {
    changes.push({
      column: column.name,
      message: `${name} ${value} is outside the column's range; stored as NULL`,
    });
    return null;
  }
  const clamped = Number.isNaN(value) ? 0 : Math.min(max, Math.max(min, whole));
  changes.push({
    column: column.name,
    message: `${name} ${value} is outside the column's range; stored as ${clamped}`,
  });
  return clamped;
}

function stringValue(table: Table, column: Column, value: string, changes: ColumnChange[]): string {
  const fitted = wellFormedText(value);
  if (fitted.changed) {
    changes.push({
      column: column.name,
      message: `${table.name}.${column.name} holds a lone surrogate, which no UTF-8 text can; stored with U+FFFD in its place`,
    });
  }
  return fitted.text;
}

/**
 * The row as every engine stores it, and each value that had to change (see the module's rules). Values of the
 * wrong kind (a string in an integer column) cannot come from the exporter's own rows; they are stored as NULL.
 */
export function fitRow(table: Table, row: Row): { row: Row; changes: ColumnChange[] } {
  const changes: ColumnChange[] = [];
  const fitted: Row = {};
  for (const column of table.columns) {
    const value = row[column.name];
    if (value === null || value === undefined) fitted[column.name] = null;
    else if (column.type === 'string')
      fitted[column.name] = stringValue(table, column, String(value), changes);
    else if (typeof value === 'number') fitted[column.name] = integerValue(table, column, value, changes);
    else {
      changes.push({
        column: column.name,
        message: `${table.name}.${column.name} is not a number; stored as NULL`,
      });
      fitted[column.name] = null;
    }
  }
  return { row: fitted, changes };
}

/** The lines a row's values come from: where its record (or first record) starts, and where it ends. */
export interface RowLines {
  start: number | null;
  end: number | null;
}

/** Columns of a session or a tool call whose value its first record gives; the others come from its last. */
const START_COLUMNS = new Set([
  'file',
  'session_id',
  'dialect',
  'model',
  'tool_call_id',
  'tool_name',
  'started_at_ms',
]);

/**
 * The line of the record a column's value comes from, for its warning: a session's id and model come from its
 * start, its usage and duration from its result; a tool call's name and start from its start record, its status and
 * completion from its completion.
 */
export function lineOfColumn(column: string, lines: RowLines): number | null {
  return START_COLUMNS.has(column) ? (lines.start ?? lines.end) : (lines.end ?? lines.start);
}
