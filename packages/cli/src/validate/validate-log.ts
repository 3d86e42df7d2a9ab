/**
 * Validation of one log: every record against its dialect's schema, every line against the tokenizer's rules, and
 * the stream as a whole against the session reducer. The same function runs in the main thread and in workers.
 */

import {
  type CanonicalEvent,
  createSessionReducer,
  type Dialect,
  type JsonObject,
  loadSchemaValidators,
  type SchemaIssue,
  type SourceLocation,
} from '@cursor-stream/core/normalize';
import type { NdjsonRecord } from '@cursor-stream/ndjson';
import type { Result } from '../cli-error.ts';
import type { InputOptions } from '../options.ts';
import type { Progress } from '../progress-bar.ts';
import { readLog } from '../read-log.ts';
import { byPosition, createFindingList, type FileReport, type Finding } from './findings.ts';
import { streamAnomalies } from './stream-anomalies.ts';

/** Options of {@link validateLog}. */
export interface ValidateLogOptions extends InputOptions {
  /** Report unknown fields, unknown event types and stream anomalies as problems rather than warnings. */
  strict: boolean;
}

/** What besides options the validation needs from its thread. */
export interface ValidateLogContext {
  readonly stdin: AsyncIterable<Uint8Array | string> & { readonly isTTY?: boolean | undefined };
  readonly progress?: (size: number | undefined, label: string) => Progress;
}

// The keywords a schema reports an unexpected property with; only strict validation produces them.
const UNKNOWN_FIELD_KEYWORDS = new Set(['additionalProperties', 'unevaluatedProperties']);

function schemaFinding(record: NdjsonRecord, issue: SchemaIssue): Finding {
  const code = UNKNOWN_FIELD_KEYWORDS.has(issue.keyword) ? 'unknown-field' : 'schema-violation';
  return { line: record.line, offset: record.offset, code, message: issue.message, pointer: issue.pointer };
}

/** Collects findings and the locations the stream anomalies need, event by event. */
function createCollector(strict: boolean) {
  const problems = createFindingList();
  const warnings = createFindingList();
  const finishes: (SourceLocation | undefined)[] = [];
  const toolOffsets = new Map<number, number>();
  // Lines whose record the schema check already reported, so that a normalizer's own schema verdict is not doubled.
  const schemaLines = new Set<number>();

  function onRecord(record: NdjsonRecord, dialect: Dialect | undefined): void {
    if (dialect === undefined) return;
    const issues = dialect.validate(record.value as JsonObject, { strict });
    if (issues.length > 0) schemaLines.add(record.line);
    for (const issue of issues) problems.add(schemaFinding(record, issue));
  }

  function onEvent(event: CanonicalEvent): void {
    const loc = event.loc;
    if (event.type === 'invalid-line' && loc !== undefined) {
      if (event.code === 'schema-violation' && schemaLines.has(loc.line)) return;
      problems.add({ ...loc, code: event.code, message: event.message });
    } else if (event.type === 'unknown' && loc !== undefined) {
      const type = event.rawSubtype === undefined ? event.rawType : `${event.rawType}/${event.rawSubtype}`;
      (strict ? problems : warnings).add({
        ...loc,
        code: 'unknown-event',
        message: `event type ${type} is not modelled`,
      });
    } else if (event.type === 'finish') {
      finishes.push(loc);
    } else if ((event.type === 'tool-call' || event.type === 'tool-result') && loc !== undefined) {
      toolOffsets.set(loc.line, loc.offset);
    }
  }

  return { problems, warnings, finishes, toolOffsets, onRecord, onEvent };
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
): Promise<Result<FileReport>> {
  // The generated validators are most of the code; only validation loads them, once per thread.
  await loadSchemaValidators();
  const collector = createCollector(options.strict);
  const reducer = createSessionReducer(options.dialect === 'auto' ? {} : { dialect: options.dialect });
  const result = await readLog(path, {
    ...options,
    ...context,
    onRecord: collector.onRecord,
    onEvents(events) {
      for (const event of events) {
        collector.onEvent(event);
        reducer.push(event);
      }
    },
  });
  if (!result.ok) return result;
  const { lines, bytes, events, dialect } = result.value;
  const anomalies = streamAnomalies(reducer.sessions(), {
    finishes: collector.finishes,
    toolOffsets: collector.toolOffsets,
    end: { line: Math.max(1, lines), offset: bytes },
  });
  // Anomalies are few (a handful per session), so they are always listed.
  const { problems, warnings } = collector;
  const problemList = options.strict ? [...problems.listed, ...anomalies] : problems.listed;
  const warningList = options.strict ? warnings.listed : [...warnings.listed, ...anomalies];
  const report: FileReport = {
    path,
    dialect,
    lines,
    events,
    problems: problemList.sort(byPosition),
    warnings: warningList.sort(byPosition),
  };
  if (problems.omitted > 0) report.problemsOmitted = problems.omitted;
  if (warnings.omitted > 0) report.warningsOmitted = warnings.omitted;
  return { ok: true, value: report };
}
