/**
 * Runs the census over logs: each record is counted under its dialect, type and subtype, checked against its
 * dialect's strict schema for drift, and matched with the `unknown` events the normalizer reads it as.
 */

import {
  type CanonicalEvent,
  type Dialect,
  type JsonObject,
  loadSchemaValidators,
} from '@cursor-stream/core/normalize';
import type { NdjsonRecord } from '@cursor-stream/ndjson';
import type { Progress } from '@cursor-stream/node/logs';
import { expandLogPaths, type LogError, readLog } from '@cursor-stream/node/logs';
import { displayPath } from '../cli-error.ts';
import type { InputOptions } from '../options.ts';
import { type CensusJson, type CensusRow, type CensusTally, createCensusTally } from './census-tally.ts';
import { censusPointer, recordDrift } from './record-drift.ts';

/** What besides options the census needs from its process. */
export interface CensusContext {
  readonly stdin: AsyncIterable<Uint8Array | string> & { readonly isTTY?: boolean | undefined };
  readonly progress?: (size: number | undefined, label: string) => Progress;
  /** Told each problem of a log read through (another agent's log), to say it as the other commands do. */
  readonly onProblem?: (problem: LogError) => void;
}

/** Records awaiting their events; a batch holds far fewer. */
const PENDING_ROWS = 4096;

/** Counts one log into the tally. */
async function censusOfLog(path: string, tally: CensusTally, options: InputOptions, context: CensusContext) {
  const where = displayPath(path);
  // Rows of the records of the batch being read, by line, so that an `unknown` event finds its record's row.
  let rowsByLine = new Map<number, CensusRow>();

  // The dialect of the stream so far: a record no dialect explains (a type none knows) is judged by its schema.
  let streamDialect: Dialect | undefined;

  function onRecord(record: NdjsonRecord, explainedBy: Dialect | undefined): void {
    const at = { path: where, line: record.line };
    const value = record.value as JsonObject;
    if (explainedBy !== undefined) streamDialect = explainedBy;
    const dialect = explainedBy ?? streamDialect;
    const row = tally.addRecord(at, dialect?.name ?? null, value);
    if (row === null) return;
    rowsByLine.set(record.line, row);
    // Records that give no event never see a batch end; the oldest are let go so the map stays small.
    if (rowsByLine.size > PENDING_ROWS) rowsByLine.delete(rowsByLine.keys().next().value ?? 0);
    if (dialect !== undefined)
      tally.addDrift(row, at, recordDrift(dialect, value), (p) => censusPointer(value, p));
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

  const result = await readLog(path, { ...options, ...context, onRecord, onEvents });
  if (result.ok) for (const problem of result.value.inputProblems) context.onProblem?.(problem);
  if (result.ok) tally.addFile();
  else tally.addUnreadable({ path: where, code: result.error.code, message: result.error.message });
}

/**
 * The census of logs and directories of logs (walked like `validate` walks them), read one after the other.
 *
 * @returns The census; logs that could not be read are listed in its `unreadable`.
 */
export async function censusOfLogs(
  paths: readonly string[],
  options: InputOptions,
  context: CensusContext,
): Promise<CensusJson> {
  await loadSchemaValidators();
  const tally = createCensusTally();
  for (const entry of await expandLogPaths(paths)) {
    if ('error' in entry) {
      tally.addUnreadable({
        path: displayPath(entry.path),
        code: entry.error.code,
        message: entry.error.message,
      });
    } else {
      await censusOfLog(entry.path, tally, options, context);
    }
  }
  return tally.result();
}
