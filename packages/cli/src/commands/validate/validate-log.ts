/**
 * `validate` of one log: the log read through the node package's reader, its records and events handed to the
 * collector of `@cursor-stream/inspect/validate`. The same function runs on the main thread and on pool workers.
 */

import { type CanonicalEvent, loadSchemaValidators } from '@cursor-stream/core/normalize';
import {
  createFindingList,
  createValidateCollector,
  type FileReport,
  validationReport,
  validatorKindsFor,
} from '@cursor-stream/inspect/validate';
import { type Progress, readLog } from '@cursor-stream/node/logs';
// The digest alone, without the rest of the package (child processes), which a command's start-up need not load.
import { createNodeTextDigest } from '@cursor-stream/node/text-digest';
import type { CliError } from '../../io/cli-error.ts';
import type { InputOptions } from '../../io/options.ts';

/** Options of {@link validateLog}. */
export interface ValidateLogOptions extends InputOptions {
  /** Report unknown fields, unknown event types and stream anomalies as problems rather than warnings. */
  strict: boolean;
}

/**
 * What {@link validateLog} gives: the report, or the error that stopped the reading, with the report of what was read
 * before it (`readFirst`, absent when nothing was) — a line found invalid before a reset connection stays found.
 */
export type ValidateLogResult =
  | { ok: true; value: FileReport }
  | { ok: false; error: CliError; readFirst?: FileReport };

/** What besides options the validation needs: its thread's input and progress, and what listing the log found. */
export interface ValidateLogContext {
  readonly stdin: AsyncIterable<Uint8Array | string> & { readonly isTTY?: boolean | undefined };
  readonly progress?: (size: number | undefined, label: string) => Progress;
  /** Whether the path was a regular file when listed. */
  readonly regularFile?: boolean;
}

/**
 * Validates one log.
 *
 * @param path - A file path, or `-` for standard input.
 * @returns The report, or the I/O error that stopped the reading.
 */
export async function validateLog(
  path: string,
  options: ValidateLogOptions,
  context: ValidateLogContext,
): Promise<ValidateLogResult> {
  // The generated validators are most of the code; only validation loads them, once per thread, and only its kind.
  await loadSchemaValidators(validatorKindsFor(options));
  const problems = createFindingList();
  const warnings = createFindingList();
  const collector = createValidateCollector(
    {
      strict: options.strict,
      dialect: options.dialect === 'auto' ? undefined : options.dialect,
      textDigest: createNodeTextDigest,
    },
    problems,
    warnings,
  );
  const read = { events: 0, lastLine: 0 };
  function onEvents(events: readonly CanonicalEvent[]): void {
    read.events += events.length;
    const line = events[events.length - 1]?.loc?.line;
    if (line !== undefined && line > read.lastLine) read.lastLine = line;
    collector.onEvents(events);
  }
  // Named one by one (spreads last): spreads first take V8's slow path, microseconds per log of a folder.
  const result = await readLog(path, {
    dialect: options.dialect,
    maxRecordBytes: options.maxRecordBytes,
    regularFile: context.regularFile,
    stdin: context.stdin,
    onRecord: collector.onRecord,
    // The collector only checks records against their schema, which a line taken without a value is proven to pass;
    // and, with a dialect forced, which dialect read each, which it needs every record for.
    onRecordFor: options.dialect === 'auto' ? 'unproven-records' : 'every-record',
    // The schema check reads every string of a record: left undecoded, each would be scanned, then decoded anyway.
    lazyStrings: false,
    onEvents,
    ...(context.progress === undefined ? {} : { progress: context.progress }),
  });
  if (!result.ok) {
    if (read.events === 0) return result;
    const facts = { lines: read.lastLine, events: read.events, dialect: null, foreign: null };
    return { ...result, readFirst: validationReport(path, facts, problems, warnings) };
  }
  const stats = result.value;
  if (stats.foreign === null) {
    const end = { line: Math.max(1, stats.lines), offset: stats.bytes };
    collector.end(end);
    for (const problem of stats.inputProblems) {
      problems.add({ ...end, code: problem.code, message: problem.message });
    }
  }
  return { ok: true, value: validationReport(path, stats, problems, warnings) };
}
