/**
 * The census of a set of logs: records counted per dialect, type and subtype, with what the schemas and the
 * canonical model do not know about each, and where it first appears. Every collection is capped, so memory stays
 * bounded whatever the logs hold; what a cap turns away is counted.
 */

import { type RecordName, safeJsonStringify } from '@cursor-stream/core/normalize';
import { plural, truncate } from '@cursor-stream/core/text';
import type { DriftItem, RecordDrift } from './record-drift.ts';

/** Where something first appeared: a log and its 1-based physical line. */
export interface CensusLocation {
  path: string;
  line: number;
}

/** A field or value the schema does not know, how many records had it, and where it first appeared. */
export interface CensusDriftEntry {
  /** JSON Pointer into the record, array indices written `*`. */
  pointer: string;
  /** For an unknown value, the value as JSON (long ones cut with `…`); absent for an unknown field. */
  value?: string;
  count: number;
  first: CensusLocation;
}

/** Records that failed their schema for another reason than drift (a wrong type, a missing field). */
export interface CensusViolations {
  count: number;
  first: CensusLocation & { pointer: string; message: string };
}

/** One record type (and subtype) of one dialect. */
export interface CensusRow {
  /** The dialect that read the records; `null` for records no dialect explains. */
  dialect: string | null;
  /** The kind of record as its dialect names it (its `type` by default); `null` when nothing names it. */
  type: string | null;
  /** The kind within it (its `subtype` by default). */
  subtype: string | null;
  count: number;
  first: CensusLocation;
  /** False when the normalizer read these records as `unknown` events: the canonical model has no event for them. */
  modelled: boolean;
  unknownFields: CensusDriftEntry[];
  unknownValues: CensusDriftEntry[];
  /** Occurrences of unknown fields or values past {@link CENSUS_LIMITS}`.entriesPerRow`, counted but not listed. */
  entriesOmitted: number;
  violations: CensusViolations | null;
}

/** Lines that are not records of any dialect, per code. */
export interface CensusInvalidLines {
  code: string;
  count: number;
  first: CensusLocation;
}

/** A log the census could not read. */
export interface CensusUnreadable {
  path: string;
  code: string;
  message: string;
}

/** The census document (`census --json`). */
export interface CensusJson {
  /** Logs read. */
  files: number;
  records: number;
  rows: CensusRow[];
  /** Records of types past {@link CENSUS_LIMITS}`.rows`, counted but not listed. */
  recordsOmitted: number;
  invalidLines: CensusInvalidLines[];
  unreadable: CensusUnreadable[];
  /** Unreadable logs past {@link CENSUS_LIMITS}`.unreadable`, counted but not listed. */
  unreadableOmitted: number;
}

/** The caps that keep a census bounded. */
export const CENSUS_LIMITS = {
  /** Distinct (dialect, type, subtype) rows. */
  rows: 1000,
  /** Distinct unknown fields and values per row. */
  entriesPerRow: 200,
  /** Characters of a type, subtype or value kept. */
  text: 120,
  /** Distinct invalid-line codes (the tokenizer has a handful). */
  invalidCodes: 100,
  /** Unreadable logs listed. */
  unreadable: 1000,
} as const;

/** Builds a {@link CensusJson} record by record. */
export interface CensusTally {
  /** Counts a record under its dialect and name; `null` when the row cap turned it away. */
  addRecord(at: CensusLocation, dialect: string | null, name: RecordName): CensusRow | null;
  addDrift(
    row: CensusRow,
    at: CensusLocation,
    drift: RecordDrift,
    pointerOf: (pointer: string) => string,
  ): void;
  addInvalidLine(at: CensusLocation, code: string): void;
  addFile(): void;
  addUnreadable(unreadable: CensusUnreadable): void;
  result(): CensusJson;
}

function cut(value: string | null): string | null {
  return value === null ? null : truncate(value, CENSUS_LIMITS.text);
}

function valueText(value: unknown): string {
  if (value === undefined) return 'undefined';
  const written = safeJsonStringify(value);
  return truncate(written.ok ? written.text : `(${written.message})`, CENSUS_LIMITS.text);
}

/** Makes an empty {@link CensusTally}. */
export function createCensusTally(): CensusTally {
  // Rows by dialect, type and subtype, each level a map: a key string made of the three for every record (as
  // `JSON.stringify` makes one) costs more than the rest of the tally. `listedRows` keeps them in the order found.
  const rows = new Map<string | null, Map<string | null, Map<string | null, CensusRow>>>();
  const listedRows: CensusRow[] = [];
  const entries = new Map<CensusRow, Map<string, CensusDriftEntry>>();
  const invalid = new Map<string, CensusInvalidLines>();
  const unreadable: CensusUnreadable[] = [];
  const totals = { files: 0, records: 0, recordsOmitted: 0, unreadableOmitted: 0 };

  function addRecord(at: CensusLocation, dialect: string | null, name: RecordName) {
    totals.records++;
    const type = cut(name.type);
    const subtype = cut(name.subtype);
    let row = rows.get(dialect)?.get(type)?.get(subtype);
    if (row === undefined) {
      if (listedRows.length >= CENSUS_LIMITS.rows) {
        totals.recordsOmitted++;
        return null;
      }
      // Maps are made only for a row that is listed, so records past the limit add nothing.
      let types = rows.get(dialect);
      if (types === undefined) {
        types = new Map();
        rows.set(dialect, types);
      }
      let subtypes = types.get(type);
      if (subtypes === undefined) {
        subtypes = new Map();
        types.set(type, subtypes);
      }
      row = newRow(dialect, type, subtype, at);
      subtypes.set(subtype, row);
      listedRows.push(row);
      entries.set(row, new Map());
    }
    row.count++;
    return row;
  }

  function addDrift(
    row: CensusRow,
    at: CensusLocation,
    drift: RecordDrift,
    pointerOf: (pointer: string) => string,
  ): void {
    // Most records have no drift: nothing to look up, and no set made for them.
    if (drift.items.length === 0 && drift.violation === null) return;
    const listed = entries.get(row);
    if (listed === undefined) return;
    // A record counts once per entry, however often its list elements repeat the field.
    const inRecord = new Set<string>();
    for (const item of drift.items) {
      const entry = driftEntry(item, pointerOf, at);
      const key = `${item.kind}\u0000${entry.pointer}\u0000${entry.value ?? ''}`;
      if (inRecord.has(key)) continue;
      inRecord.add(key);
      const known = listed.get(key);
      if (known !== undefined) known.count++;
      else if (listed.size < CENSUS_LIMITS.entriesPerRow) listed.set(key, entry);
      else row.entriesOmitted++;
    }
    if (drift.violation !== null) {
      const { pointer, message } = drift.violation;
      if (row.violations === null) row.violations = { count: 0, first: { ...at, pointer, message } };
      row.violations.count++;
    }
  }

  function addInvalidLine(at: CensusLocation, code: string): void {
    const known = invalid.get(code);
    if (known !== undefined) known.count++;
    else if (invalid.size < CENSUS_LIMITS.invalidCodes) invalid.set(code, { code, count: 1, first: at });
  }

  function result(): CensusJson {
    const sorted = [...listedRows].sort(byDialectTypeSubtype).map((row) => {
      const listed = [...(entries.get(row)?.values() ?? [])].sort(byPointerThenValue);
      return {
        ...row,
        unknownFields: listed.filter((entry) => entry.value === undefined),
        unknownValues: listed.filter((entry) => entry.value !== undefined),
      };
    });
    const { files, records, recordsOmitted, unreadableOmitted } = totals;
    const invalidLines = [...invalid.values()];
    return { files, records, rows: sorted, recordsOmitted, invalidLines, unreadable, unreadableOmitted };
  }

  return {
    addRecord,
    addDrift,
    addInvalidLine,
    addFile: () => void totals.files++,
    addUnreadable(entry) {
      if (unreadable.length < CENSUS_LIMITS.unreadable) unreadable.push(entry);
      else totals.unreadableOmitted++;
    },
    result,
  };
}

function newRow(
  dialect: string | null,
  type: string | null,
  subtype: string | null,
  first: CensusLocation,
): CensusRow {
  return {
    dialect,
    type,
    subtype,
    count: 0,
    first,
    modelled: true,
    unknownFields: [],
    unknownValues: [],
    entriesOmitted: 0,
    violations: null,
  };
}

function driftEntry(
  item: DriftItem,
  pointerOf: (pointer: string) => string,
  first: CensusLocation,
): CensusDriftEntry {
  const pointer = truncate(pointerOf(item.pointer), CENSUS_LIMITS.text);
  return item.kind === 'field'
    ? { pointer, count: 1, first }
    : { pointer, value: valueText(item.value), count: 1, first };
}

function compareText(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

function byDialectTypeSubtype(a: CensusRow, b: CensusRow): number {
  return (
    compareText(a.dialect, b.dialect) || compareText(a.type, b.type) || compareText(a.subtype, b.subtype)
  );
}

function byPointerThenValue(a: CensusDriftEntry, b: CensusDriftEntry): number {
  return compareText(a.pointer, b.pointer) || compareText(a.value ?? null, b.value ?? null);
}

/** Whether a census found anything the schemas or the canonical model do not know, or lines that are not records. */
export function censusFoundDrift(census: CensusJson): boolean {
  return censusDriftSummary(census) !== null;
}

/**
 * What a census found unknown, as counts in one phrase (`2 record types not modelled, 5 unknown fields`), and where
 * the first of it is (`null` when only counted past a cap); `null` when nothing is.
 */
export function censusDriftSummary(
  census: CensusJson,
): { text: string; first: CensusLocation | null } | null {
  // The earliest of the first places each kind was found at: in the log the first of them names, the least line.
  let first: CensusLocation | undefined;
  const at = (location: CensusLocation | undefined): void => {
    if (location === undefined) return;
    if (first === undefined || (location.path === first.path && location.line < first.line)) first = location;
  };
  let unmodelled = 0;
  let fields = 0;
  let values = 0;
  let violations = 0;
  let omitted = 0;
  for (const row of census.rows) {
    if (!row.modelled) {
      unmodelled += 1;
      at(row.first);
    }
    fields += row.unknownFields.length;
    values += row.unknownValues.length;
    omitted += row.entriesOmitted;
    violations += row.violations?.count ?? 0;
    at(row.unknownFields[0]?.first);
    at(row.unknownValues[0]?.first);
    at(row.violations?.first);
  }
  const invalidLines = census.invalidLines.reduce((sum, entry) => sum + entry.count, 0);
  at(census.invalidLines[0]?.first);
  const parts = [
    [unmodelled, 'record type not modelled', 'record types not modelled'],
    [fields, 'unknown field', 'unknown fields'],
    [values, 'unknown value', 'unknown values'],
    [omitted, 'more unknown field or value', 'more unknown fields or values'],
    [violations, 'schema violation', 'schema violations'],
    [invalidLines, 'invalid line', 'invalid lines'],
    [census.recordsOmitted, 'record of types past the cap', 'records of types past the cap'],
  ] as const;
  const text = parts
    .filter(([count]) => count > 0)
    .map(([count, one, many]) => plural(count, one, many))
    .join(', ');
  return text === '' ? null : { text, first: first ?? null };
}
