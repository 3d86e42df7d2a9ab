/** The text form of the census: one block per dialect, one line per record type, its drift indented below it. */

import { escapeControls, formatCount, plural } from '@cursor-stream/core/text';
import { type Cell, formatTable, type Palette } from '../terminal/index.ts';
import type { CensusDriftEntry, CensusJson, CensusLocation, CensusRow } from './census-tally.ts';

function at(location: CensusLocation): string {
  return `first at ${escapeControls(location.path)}:${location.line}`;
}

/**
 * How a dialect's rows join type and subtype: `system/init` as the CLI's records are known, but with a space in a
 * dialect whose names hold a `/` of their own (JSON-RPC methods), where a `/` would read as one longer path.
 */
function separatorOf(rows: readonly CensusRow[]): string {
  return rows.some((row) => row.type?.includes('/') || row.subtype?.includes('/')) ? ' ' : '/';
}

function typeLabel(row: CensusRow, separator: string): string {
  const type = row.type === null ? '(no type)' : row.type;
  return escapeControls(row.subtype === null ? type : `${type}${separator}${row.subtype}`);
}

function entryRow(kind: 'field' | 'value', entry: CensusDriftEntry, palette: Palette): Cell[] {
  const what = entry.value === undefined ? entry.pointer : `${entry.pointer} = ${entry.value}`;
  return [
    { text: `    unknown ${kind} ${escapeControls(what)}`, style: palette.yellow },
    { text: formatCount(entry.count) },
    { text: at(entry.first), style: palette.dim },
  ];
}

function rowCells(row: CensusRow, separator: string, palette: Palette): Cell[][] {
  const note = row.modelled ? '' : '  not modelled: read as unknown events';
  const cells: Cell[][] = [
    [
      { text: `  ${typeLabel(row, separator)}` },
      { text: formatCount(row.count) },
      { text: `${at(row.first)}${note}`, style: row.modelled ? palette.dim : palette.yellow },
    ],
  ];
  for (const entry of row.unknownFields) cells.push(entryRow('field', entry, palette));
  for (const entry of row.unknownValues) cells.push(entryRow('value', entry, palette));
  if (row.entriesOmitted > 0) {
    cells.push([
      {
        text: `    and ${plural(row.entriesOmitted, 'more unknown field or value', 'more unknown fields or values')} not listed`,
        style: palette.yellow,
      },
    ]);
  }
  if (row.violations !== null) {
    const { first, count } = row.violations;
    const pointer = first.pointer === '' ? '' : ` (at ${escapeControls(first.pointer)})`;
    cells.push([
      { text: `    schema violation: ${escapeControls(first.message)}${pointer}`, style: palette.red },
      { text: formatCount(count) },
      { text: at(first), style: palette.dim },
    ]);
  }
  return cells;
}

function dialectBlocks(census: CensusJson, palette: Palette): string[] {
  const byDialect = new Map<string | null, CensusRow[]>();
  for (const row of census.rows) byDialect.set(row.dialect, [...(byDialect.get(row.dialect) ?? []), row]);
  const lines: string[] = [];
  for (const [dialect, rows] of byDialect) {
    const records = rows.reduce((sum, row) => sum + row.count, 0);
    const name = dialect ?? 'no dialect (records no dialect explains)';
    lines.push(`${palette.bold(escapeControls(name))}: ${plural(records, 'record')}`);
    const separator = separatorOf(rows);
    lines.push(...formatTable(rows.flatMap((row) => rowCells(row, separator, palette))), '');
  }
  return lines;
}

function otherLines(census: CensusJson, palette: Palette): string[] {
  const lines = census.invalidLines.map(
    (invalid) =>
      `${palette.red(`invalid lines: ${invalid.code}`)} ${formatCount(invalid.count)}, ${at(invalid.first)}`,
  );
  if (census.recordsOmitted > 0) {
    lines.push(palette.yellow(`and ${plural(census.recordsOmitted, 'more record')} of types not listed`));
  }
  for (const file of census.unreadable) {
    lines.push(palette.red(`not read: ${escapeControls(file.path)}: ${escapeControls(file.message)}`));
  }
  if (census.unreadableOmitted > 0)
    lines.push(palette.red(`and ${plural(census.unreadableOmitted, 'more file')} not read`));
  return lines;
}

function closingLine(census: CensusJson, palette: Palette): string {
  const sum = (count: (row: CensusRow) => number) =>
    census.rows.reduce((total, row) => total + count(row), 0);
  const invalid = census.invalidLines.reduce((total, entry) => total + entry.count, 0);
  const facts = [
    [sum((row) => row.unknownFields.length), 'unknown field'],
    [sum((row) => row.unknownValues.length), 'unknown value'],
    [sum((row) => (row.modelled ? 0 : 1)), 'record type not modelled', 'record types not modelled'],
    [sum((row) => row.violations?.count ?? 0), 'schema violation'],
    [invalid, 'line that is not a record', 'lines that are not records'],
  ] as const;
  const found = facts
    .filter(([count]) => count > 0)
    .map(([count, noun, nounPlural]) => plural(count, noun, nounPlural));
  const verdict =
    found.length === 0
      ? palette.green('the schemas know every field and value')
      : palette.yellow(found.join(', '));
  return `${plural(census.files, 'file')}, ${plural(census.records, 'record')}, ${plural(census.rows.length, 'record type')}: ${verdict}`;
}

/** The whole text form of `census`, one string per output line. */
export function formatCensusText(census: CensusJson, palette: Palette): string[] {
  return [...dialectBlocks(census, palette), ...otherLines(census, palette), closingLine(census, palette)];
}
