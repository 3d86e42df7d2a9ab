/** `cursor-stream census`: what the schemas and the canonical model do not know about a set of logs. */

import { loadSchemaValidators } from '@cursor-stream/core/normalize';
import { jsonPath } from '@cursor-stream/core/text';
import {
  CENSUS_VALIDATOR_KINDS,
  type CensusJson,
  type CensusReader,
  censusDriftSummary,
  createCensusReader,
  createCensusTally,
  formatCensusText,
} from '@cursor-stream/inspect/census';
import { type ForeignLogsFields, foreignLogsFields } from '@cursor-stream/inspect/foreign-logs';
import { createPalette, shouldUseColor } from '@cursor-stream/inspect/terminal';
import {
  expandLogPaths,
  type LogError,
  type Progress,
  readLog,
  withoutRepeatedLogs,
} from '@cursor-stream/node/logs';
import { type CliError, cliError } from '../../io/cli-error.ts';
import { type CliIo, progressFor, refusesStdinTwice, reportError, writeText } from '../../io/cli-io.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE_OR_IO, type ExitCode } from '../../io/exit-codes.ts';
import type { InputOptions } from '../../io/options.ts';

/** Options of `census`. */
export interface CensusOptions extends InputOptions {
  json: boolean;
}

/** What besides options the census needs from its process. */
export interface CensusContext {
  readonly stdin: AsyncIterable<Uint8Array | string> & { readonly isTTY?: boolean | undefined };
  readonly progress?: (size: number | undefined, label: string) => Progress;
  /** Told each problem of a log read through (another agent's log), to say it as the other commands do. */
  readonly onProblem?: (problem: LogError) => void;
  /** Told each log that could not be read, besides its place in the census's `unreadable`. */
  readonly onUnreadable?: (error: LogError) => void;
  /** Told each path left out as naming a file another path names too: its records are counted once. */
  readonly onCountedElsewhere?: (note: LogError) => void;
}

/**
 * The census of logs and directories of logs (walked like `validate` walks them), read one after the other.
 *
 * @returns The census; logs that could not be read are listed in its `unreadable`, and logs left out as not
 *   Cursor's in its `foreignLogs`.
 */
export async function censusOfLogs(
  paths: readonly string[],
  options: InputOptions,
  context: CensusContext,
): Promise<CensusJson & ForeignLogsFields> {
  await loadSchemaValidators(CENSUS_VALIDATOR_KINDS);
  const tally = createCensusTally();
  const problems: LogError[] = [];
  const { entries, leftOut } = withoutRepeatedLogs(paths, await expandLogPaths(paths, { sizes: false }));
  for (const note of leftOut) context.onCountedElsewhere?.(note);
  for (const entry of entries) {
    const where = jsonPath(entry.path);
    if ('error' in entry) {
      tally.addUnreadable({ path: where, code: entry.error.code, message: entry.error.message });
      context.onUnreadable?.(entry.error);
      continue;
    }
    const reader = heldUntilKnownCursors(createCensusReader(tally, where));
    // Named one by one (spreads last): spreads first take V8's slow path, microseconds per log of a folder.
    const result = await readLog(entry.path, {
      dialect: options.dialect,
      maxRecordBytes: options.maxRecordBytes,
      regularFile: entry.regularFile,
      stdin: context.stdin,
      foreignLogs: 'leave-out',
      onRecord: reader.onRecord,
      onEvents: reader.onEvents,
      ...(context.progress === undefined ? {} : { progress: context.progress }),
    });
    // A log of Cursor's whose records gave no event at all still has its records held.
    if (result.ok && !result.value.leftOut) reader.onEvents([]);
    if (result.ok) {
      problems.push(...result.value.inputProblems);
      for (const problem of result.value.inputProblems) context.onProblem?.(problem);
      tally.addFile();
    } else {
      tally.addUnreadable({ path: where, code: result.error.code, message: result.error.message });
      context.onUnreadable?.(result.error);
    }
  }
  return { ...tally.result(), ...foreignLogsFields(problems) };
}

/**
 * A census reader that counts a log's records only once the log is known to be Cursor's. Another agent's log is left
 * out of the census as out of every count: the reader of the log holds its first events until it knows (see
 * `foreignLogs: 'leave-out'`) and delivers none of a log left out, so the records read meanwhile wait for the first
 * events delivered, and are dropped with the log otherwise. They are the records of the reader's first window only.
 */
function heldUntilKnownCursors(reader: CensusReader): CensusReader {
  let held: Parameters<CensusReader['onRecord']>[] | null = [];
  return {
    onRecord(record, explainedBy) {
      if (held === null) reader.onRecord(record, explainedBy);
      else held.push([record, explainedBy]);
    },
    onEvents(events) {
      if (held !== null) {
        for (const [record, explainedBy] of held) reader.onRecord(record, explainedBy);
        held = null;
      }
      reader.onEvents(events);
    },
  };
}

/**
 * Runs `census` on files and directories.
 *
 * @returns 0 when the schemas and the model know everything read, 1 when something is unknown, a line is not a
 *   record or a log is another agent's (said on stderr), 2 when a log could not be read.
 */
export async function runCensus(
  paths: readonly string[],
  options: CensusOptions,
  io: CliIo,
): Promise<ExitCode> {
  if (refusesStdinTwice(paths, io)) return EXIT_USAGE_OR_IO;
  const { json, ...inputOptions } = options;
  let problems = 0;
  const census = await censusOfLogs(paths, inputOptions, {
    stdin: io.stdin,
    progress: progressFor(io, false),
    onProblem(problem) {
      problems += 1;
      reportError(io, problem);
    },
    // Exit 2 says a log could not be read; stderr says which, as for every other command.
    onUnreadable: (error) => reportError(io, error),
    // Said, as `summary` says it, and no reason to exit 1.
    onCountedElsewhere: (note) => reportError(io, note),
  });
  if (json) await writeText(io.stdout, `${JSON.stringify(census, null, 2)}\n`);
  else {
    const palette = createPalette(shouldUseColor({ isTTY: io.stdout.isTTY, env: io.env }));
    await writeText(io.stdout, `${formatCensusText(census, palette).join('\n')}\n`);
  }
  if (census.unreadable.length > 0) return EXIT_USAGE_OR_IO;
  const drift = censusDriftSummary(census);
  if (drift !== null) reportError(io, driftError(drift, json));
  return drift !== null || problems > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

/** The one line that says why what the census found unknown makes it exit 1. */
function driftError(drift: NonNullable<ReturnType<typeof censusDriftSummary>>, json: boolean): CliError {
  const where = drift.first === null ? '' : `, the first at line ${drift.first.line}`;
  const fate = json ? 'listed in the document' : 'listed above';
  return cliError('unknown-to-schemas', `${drift.text}${where}: ${fate}`, drift.first?.path);
}
