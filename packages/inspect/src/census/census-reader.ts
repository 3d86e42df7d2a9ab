/**
 * One log's records and events counted into a census, as a reader of the log hands them on: each record under its
 * dialect and the name its dialect gives it (its type and subtype unless the dialect names it otherwise), checked against its dialect's strict schema for drift, and matched with the `unknown`
 * events the normalizer reads it as.
 */

import type {
  CanonicalEvent,
  Dialect,
  JsonObject,
  RecordName,
  RecordNamer,
  SchemaValidatorKind,
} from '@cursor-stream/core/normalize';
import type { NdjsonRecord } from '@cursor-stream/ndjson';
import type { CensusRow, CensusTally } from './census-tally.ts';
import { censusPointer, recordDrift } from './record-drift.ts';

/** Records awaiting their events; a batch holds far fewer. */
const PENDING_ROWS = 4096;

/** Takes one log's records and events into a census; see {@link createCensusReader}. */
export interface CensusReader {
  /** A record, with the dialect that explains it (`undefined` when none does). */
  onRecord(record: NdjsonRecord, explainedBy: Dialect | undefined): void;
  /** The events of the records read since the last batch. */
  onEvents(events: readonly CanonicalEvent[]): void;
}

/** The kinds of schema validators a census checks records by: drift is what the strict schemas do not know. */
export const CENSUS_VALIDATOR_KINDS: readonly SchemaValidatorKind[] = ['strict'];

/**
 * Counts one log into `tally`, its locations under the name `where`. The validators of {@link CENSUS_VALIDATOR_KINDS}
 * must be loaded (`loadSchemaValidators` of `@cursor-stream/core/normalize`) for the drift to be found.
 */
export function createCensusReader(tally: CensusTally, where: string): CensusReader {
  // Rows of the records of the batch being read, by line, so that an `unknown` event finds its record's row.
  let rowsByLine = new Map<number, CensusRow>();

  // The dialect of the stream so far: a record no dialect explains (a type none knows) is judged by its schema.
  let streamDialect: Dialect | undefined;

  // Each dialect's namer for this log, made when the dialect first explains a record of it.
  const namers = new Map<Dialect, RecordNamer | undefined>();

  function nameOf(dialect: Dialect | undefined, record: JsonObject): RecordName {
    if (dialect !== undefined && !namers.has(dialect)) namers.set(dialect, dialect.createRecordNamer?.());
    const namer = dialect === undefined ? undefined : namers.get(dialect);
    return namer?.(record) ?? { type: stringField(record, 'type'), subtype: stringField(record, 'subtype') };
  }

  function onRecord(record: NdjsonRecord, explainedBy: Dialect | undefined): void {
    const at = { path: where, line: record.line };
    const value = record.value as JsonObject;
    if (explainedBy !== undefined) streamDialect = explainedBy;
    const dialect = explainedBy ?? streamDialect;
    const row = tally.addRecord(at, dialect?.name ?? null, nameOf(dialect, value));
    if (row === null) return;
    rowsByLine.set(record.line, row);
    // Records that give no event never see a batch end; the oldest are let go so the map stays small.
    if (rowsByLine.size > PENDING_ROWS) rowsByLine.delete(rowsByLine.keys().next().value ?? 0);
    if (dialect !== undefined)
      tally.addDrift(row, at, recordDrift(dialect, value, record.length), (p) => censusPointer(value, p));
  }

  function onEvents(events: readonly CanonicalEvent[]): void {
    for (const event of events) {
      if (event.loc === undefined) continue;
      if (event.type === 'unknown') {
        const row = rowsByLine.get(event.loc.line);
        if (row !== undefined) row.modelled = false;
      } else if (event.type === 'invalid-line') {
        tally.addInvalidLine({ path: where, line: event.loc.line }, event.code);
      }
    }
    rowsByLine = new Map();
  }

  return { onRecord, onEvents };
}

function stringField(record: JsonObject, key: string): string | null {
  const value = record[key];
  return typeof value === 'string' ? value : null;
}
