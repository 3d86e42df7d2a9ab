/**
 * Validation of one log as it is read: every record against its dialect's schema, every line against the tokenizer's
 * rules, and the stream as a whole against the session reducer. A reader of the log hands on records and events; the
 * same collector runs on the main thread and on workers.
 */

import type {
  CanonicalEvent,
  Dialect,
  ForeignLog,
  JsonObject,
  SchemaIssue,
  SourceLocation,
} from '@cursor-stream/core/normalize';
import { type SchemaValidatorKind, TOO_DEEP_KEYWORD } from '@cursor-stream/core/normalize';
import {
  type BoundedSessionsOptions,
  createBoundedSessions,
  MAX_TOOL_CALLS_LISTED,
  sessionAnomalies,
} from '@cursor-stream/core/sessions';
import type { NdjsonRecord } from '@cursor-stream/ndjson';
import { byPosition, type FileReport, type Finding } from './findings.ts';

// A tool call has a start line and an end line.
const MAX_TOOL_LINES_KEPT = 2 * MAX_TOOL_CALLS_LISTED;

// The keywords a schema reports an unexpected property with; only strict validation produces them.
const UNKNOWN_FIELD_KEYWORDS = new Set(['additionalProperties', 'unevaluatedProperties']);

function findingCode(issue: SchemaIssue): string {
  if (issue.keyword === TOO_DEEP_KEYWORD) return 'too-deep';
  return UNKNOWN_FIELD_KEYWORDS.has(issue.keyword) ? 'unknown-field' : 'schema-violation';
}

function schemaFinding(record: NdjsonRecord, issue: SchemaIssue): Finding {
  const code = findingCode(issue);
  return { line: record.line, offset: record.offset, code, message: issue.message, pointer: issue.pointer };
}

/** Where a validation's findings go, in the order they are found. */
export interface FindingSink {
  add(finding: Finding): void;
}

/** How a log is validated. */
export interface ValidateCollectorOptions {
  /** Report unknown fields, unknown event types and stream anomalies as problems rather than warnings. */
  readonly strict: boolean;
  /** The dialect the user forced, which each session reports; `undefined` for `auto`. */
  readonly dialect?: string | undefined;
  /** The digest of a session's long text; see `BoundedSessionsOptions.textDigest` of `@cursor-stream/core/sessions`. */
  readonly textDigest?: BoundedSessionsOptions['textDigest'];
}

/** Takes one log's records and events; see {@link createValidateCollector}. */
export interface ValidateCollector {
  /** A record, with the dialect that reads it (`undefined` when none does): checked against its schema. */
  onRecord(record: NdjsonRecord, dialect: Dialect | undefined): void;
  /** The events of the records read since the last batch. */
  onEvents(events: readonly CanonicalEvent[]): void;
  /** The end of the input, at `end`: the last session's anomalies are added. */
  end(end: SourceLocation): void;
}

/**
 * Collects findings event by event into `problems` and `warnings`. Each session's anomalies are added when it ends,
 * and what is kept about it (its tool lines, its bounded summary) goes with it: memory holds the open session and the
 * listed findings, never the sessions or the lines before. The dialects' validators of
 * {@link validatorKindsFor}`(options)` must be loaded (`loadSchemaValidators` of `@cursor-stream/core/normalize`).
 */
export function createValidateCollector(
  options: ValidateCollectorOptions,
  problems: FindingSink,
  warnings: FindingSink,
): ValidateCollector {
  const { strict, dialect } = options;
  const forced = dialect;
  // Byte offsets of the open session's tool lines, to locate its tool findings exactly (bounded like its calls).
  let toolOffsets = new Map<number, number>();
  // Lines of the current batch whose record the schema check already reported, so that a normalizer's own schema
  // verdict is not doubled; a record's events come in the batch that read it.
  const schemaLines = new Set<number>();
  const anomalyList = (): FindingSink => (strict ? problems : warnings);
  const boundedOptions: BoundedSessionsOptions = {
    ...(dialect === undefined ? {} : { dialect }),
    ...(options.textDigest === undefined ? {} : { textDigest: options.textDigest }),
  };
  const sessions = createBoundedSessions(boundedOptions, (session) => {
    for (const finding of sessionAnomalies(session, { toolOffsets, end: endOfSession }))
      anomalyList().add(finding);
    toolOffsets = new Map();
  });
  // Where a session that ends without a finish of its own is located: the event that begins the next one while
  // reading, the end of input at the end.
  let endOfSession: SourceLocation = { line: 1, offset: 0 };

  function onRecord(record: NdjsonRecord, dialect: Dialect | undefined): void {
    // A log checked as a dialect the user named is that dialect's: a record only another one reads is a problem,
    // though the normalizer still reads it as that one (see the normalizer's `dialect` option).
    if (forced !== undefined && dialect !== undefined && dialect.name !== forced) {
      problems.add({
        line: record.line,
        offset: record.offset,
        code: 'other-dialect',
        message: `is a record of the ${dialect.name} dialect, not of ${forced}, which the log is checked as`,
      });
    }
    if (dialect === undefined) return;
    const issues = dialect.validate(record.value as JsonObject, { strict, textLength: record.length });
    if (issues.length > 0) schemaLines.add(record.line);
    for (const issue of issues) problems.add(schemaFinding(record, issue));
  }

  // Findings name the location's fields rather than spread it in: a spread first takes V8's slow path.
  function onEvent(event: CanonicalEvent): void {
    const loc = event.loc;
    if (event.type === 'invalid-line' && loc !== undefined) {
      if (event.code === 'schema-violation' && schemaLines.has(loc.line)) return;
      problems.add({ line: loc.line, offset: loc.offset, code: event.code, message: event.message });
    } else if (event.type === 'unknown' && loc !== undefined) {
      const type = event.rawSubtype === undefined ? event.rawType : `${event.rawType}/${event.rawSubtype}`;
      (strict ? problems : warnings).add({
        line: loc.line,
        offset: loc.offset,
        code: 'unknown-event',
        message: `event type ${type} is not modelled`,
      });
    } else if ((event.type === 'tool-call' || event.type === 'tool-result') && loc !== undefined) {
      if (toolOffsets.size < MAX_TOOL_LINES_KEPT) toolOffsets.set(loc.line, loc.offset);
    }
  }

  return {
    onRecord,
    onEvents(events: readonly CanonicalEvent[]): void {
      for (const event of events) {
        // The session is pushed first: an event that opens a new session closes the previous one, whose anomalies
        // need that session's tool lines, not this event's.
        if (event.loc !== undefined) endOfSession = event.loc;
        sessions.push(event);
        onEvent(event);
      }
      schemaLines.clear();
    },
    end(end: SourceLocation): void {
      endOfSession = end;
      sessions.end();
    },
  };
}

/** What reading a log came to, as a report of it says: `LogStats` of `@cursor-stream/node/logs` has these. */
export interface ReadLogFacts {
  readonly lines: number;
  readonly events: number;
  /** The dialect that read the log; `null` when none was detected. */
  readonly dialect: string | null;
  /** Another agent's log found in it; `null` for a log of cursor-agent's. */
  readonly foreign: ForeignLog | null;
}

/** Findings as a validation keeps them: the first ones listed, in the order found, the rest counted. */
export interface KeptFindings {
  readonly listed: Finding[];
  readonly omitted: number;
}

/**
 * The report of a log from what reading it found and the findings kept, sorted by position. Another agent's log has
 * one finding, whose log it is: measured by cursor-agent's rules, it says nothing else.
 */
export function validationReport(
  path: string,
  stats: ReadLogFacts,
  problems: KeptFindings,
  warnings: KeptFindings,
): FileReport {
  const { lines, events, dialect, foreign } = stats;
  if (foreign !== null) {
    const problem = {
      line: foreign.loc.line,
      offset: foreign.loc.offset,
      code: 'foreign-format',
      message: foreign.message,
    };
    // Nor does it name a dialect of Cursor's: a record of theirs that one reads too is not what the log is.
    return { path, dialect: null, lines, events, problems: [problem], warnings: [] };
  }
  const report: FileReport = {
    path,
    dialect,
    lines,
    events,
    problems: problems.listed.sort(byPosition),
    warnings: warnings.listed.sort(byPosition),
  };
  if (problems.omitted > 0) report.problemsOmitted = problems.omitted;
  if (warnings.omitted > 0) report.warningsOmitted = warnings.omitted;
  return report;
}

/** The kinds of schema validators a collector made with `options` checks records by. */
export function validatorKindsFor(options: Pick<ValidateCollectorOptions, 'strict'>): SchemaValidatorKind[] {
  return [options.strict ? 'strict' : 'open'];
}
