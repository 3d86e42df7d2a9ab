/** The `summary --json` document: its shape is part of the CLI's contract (see the README). */

import {
  type CanonicalEvent,
  checkUsage,
  type SessionSummary,
  type TextOmission,
  type ToolCallSummary,
} from '@cursor-stream/core/normalize';
import type { BoundedSession } from '@cursor-stream/core/sessions';
import type { ForeignLogsFields } from '../foreign-logs/index.ts';

/** One tool call in `summary --json`. */
export interface SummaryToolCallJson {
  toolCallId: string;
  toolName: string;
  status: string;
  startLine: number | null;
  endLine: number | null;
  durationMs: number | null;
  /** True for a completion whose start the log does not hold. */
  orphan: boolean;
}

/** One session in `summary --json`. */
export interface SummarySessionJson {
  /** The log the session is in, when the summary reads more than one; absent for one log. */
  file?: string;
  sessionId: string | null;
  dialect: string | null;
  model: string | null;
  status: SessionSummary['status'];
  /** For a session that failed or ended without a result, the agent's own sentence saying why and its line. */
  error: SessionSummary['failure'];
  /** The assistant text; past 131,072 UTF-16 units, its first and last 65,536 joined (see `textOmitted`). */
  text: string;
  /** Length of the whole assistant text, in UTF-16 units. */
  textLength: number;
  /** `null` when `text` is whole; else the units left out, `length` of them at offset `at` of `text`. */
  textOmitted: TextOmission | null;
  resultText: string | null;
  /** Whether the whole assistant text equals `resultText`; `null` without a result text. */
  textMatchesResult: boolean | null;
  /** The first 1,000 tool calls of the session. */
  toolCalls: SummaryToolCallJson[];
  /** Tool calls past the listed ones, counted by their starts (0 when all are listed). */
  toolCallsOmitted: number;
  counts: SessionSummary['counts'];
  durationMs: number | null;
  /** The token counts the log reports that are counts (whole, from 0 to 2^53 - 1); see {@link usageLeftOut}. */
  usage: SessionSummary['usage'];
}

/** A line that produced no event, in `summary --json`. */
export interface SummaryInvalidLineJson {
  /** The log the line is in, when the summary reads more than one; absent for one log. */
  file?: string;
  line: number;
  offset: number;
  code: string;
}

/** The whole `summary --json` document. */
export interface SummaryJson extends ForeignLogsFields {
  sessions: SummarySessionJson[];
  invalidLines: SummaryInvalidLineJson[];
  /** Invalid lines past the first {@link MAX_INVALID_LINES_LISTED}, counted but not listed; absent when none. */
  invalidLinesOmitted?: number;
  /** Physical lines of the input. */
  lines: number;
  /** Bytes of the input (after decompression). */
  bytes: number;
  /** Logs read, when the summary reads more than one (`lines` and `bytes` are then their sums); absent for one. */
  files?: number;
}

function toolCallJson(call: ToolCallSummary): SummaryToolCallJson {
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    status: call.status,
    startLine: call.startLine,
    endLine: call.endLine,
    durationMs: call.durationMs,
    orphan: call.orphan,
  };
}

/**
 * A session as `summary --json` prints it: exactly the documented keys, in their documented order.
 *
 * @param fallbackDialect - The stream's dialect, for a session the reducer could not name one for.
 * @param file - The log the session is in, when the summary reads more than one.
 */
export function sessionJson(
  bounded: BoundedSession,
  fallbackDialect: string | null,
  file?: string,
): SummarySessionJson {
  const json = sessionFields(bounded, fallbackDialect);
  // Not one literal spreading `{ file }` or `{}` first: V8 builds such an object on a slow path, twenty times the
  // cost of these two, which is a tenth of `summary --json` over a folder of small logs.
  return file === undefined ? json : { file, ...json };
}

/** A session's keys after `file`, in their documented order. */
function sessionFields(bounded: BoundedSession, fallbackDialect: string | null): SummarySessionJson {
  const { summary: session } = bounded;
  return {
    sessionId: session.sessionId,
    dialect: session.dialect ?? fallbackDialect,
    model: session.model,
    status: session.status,
    error: session.failure,
    text: session.text,
    textLength: session.textLength,
    textOmitted: session.textOmitted,
    resultText: session.resultText,
    textMatchesResult: session.textMatchesResult,
    toolCalls: session.toolCalls.map(toolCallJson),
    toolCallsOmitted: bounded.toolCallsOmitted,
    counts: session.counts,
    durationMs: session.durationMs,
    usage: countedUsage(session.usage),
  };
}

/**
 * The usage as `usage`, `report` and `export` count it: a count no sum can take (negative, fractional, past 2^53) is
 * left out, so that what a session cost reads the same in each; {@link usageLeftOut} says what was.
 */
function countedUsage(usage: SessionSummary['usage']): SessionSummary['usage'] {
  const checked = checkUsage(usage);
  return checked.problems.length === 0 ? usage : checked.usage;
}

/** Token counts of a session left out of its `usage`, at most this many listed by a summary; the rest counted. */
export const MAX_USAGE_LEFT_OUT_LISTED = 100;

/** What a summary left out of its sessions' usage: a sentence per count, the first ones listed, the rest counted. */
export interface UsageLeftOut {
  /** `session 1f2e…: usage.inputTokens -100 is negative, not a number of tokens`. */
  listed: string[];
  omitted: number;
}

/**
 * Collects what the sessions' `usage` left out, as they end (see {@link sessionJson}), and joins what other parts of
 * a log left out (its ranges read on other threads), in order: the first {@link MAX_USAGE_LEFT_OUT_LISTED} listed.
 */
export function usageLeftOut() {
  const listed: string[] = [];
  let omitted = 0;
  const take = (message: string) => {
    if (listed.length < MAX_USAGE_LEFT_OUT_LISTED) listed.push(message);
    else omitted++;
  };
  return {
    /** Notes what the session's usage left out, if anything. */
    add(bounded: BoundedSession): void {
      const { problems } = checkUsage(bounded.summary.usage);
      if (problems.length === 0) return;
      const session =
        bounded.summary.sessionId === null ? 'a session' : `session ${bounded.summary.sessionId}`;
      for (const problem of problems) take(`${session}: ${problem}`);
    },
    /** Adds what a later part left out. */
    join(part: UsageLeftOut): void {
      for (const message of part.listed) take(message);
      omitted += part.omitted;
    },
    json: (): UsageLeftOut => ({ listed: [...listed], omitted }),
  };
}

/** Invalid lines listed in the JSON summary; past it they are counted, so memory stays bounded on a log of garbage. */
export const MAX_INVALID_LINES_LISTED = 10_000;

/** The invalid lines of a summary as it reads them: the first {@link MAX_INVALID_LINES_LISTED} listed, the rest counted. */
export type InvalidLinesJson = Pick<SummaryJson, 'invalidLines' | 'invalidLinesOmitted'>;

/**
 * Keeps the first invalid lines and counts the rest.
 *
 * @param file - The log they are in, named on each, when the summary reads more than one.
 */
export function createInvalidLineList(file?: string) {
  const listed: SummaryInvalidLineJson[] = [];
  let omitted = 0;
  return {
    add(event: CanonicalEvent): void {
      if (event.type !== 'invalid-line' || event.loc === undefined) return;
      if (listed.length < MAX_INVALID_LINES_LISTED) {
        const where = { line: event.loc.line, offset: event.loc.offset, code: event.code };
        listed.push(file === undefined ? where : { file, ...where });
      } else omitted++;
    },
    json: (): InvalidLinesJson => invalidLinesJson(listed, omitted),
  };
}

/** Listed invalid lines and the count of those left out, as the summary writes them: no count when none were. */
function invalidLinesJson(invalidLines: SummaryInvalidLineJson[], omitted: number): InvalidLinesJson {
  return omitted > 0 ? { invalidLines, invalidLinesOmitted: omitted } : { invalidLines };
}

/** The invalid lines of consecutive parts of a log, as one list over the whole log would read. */
export function joinInvalidLines(parts: readonly InvalidLinesJson[]): InvalidLinesJson {
  const joined = createInvalidLinesJoin();
  for (const part of parts) joined.add(part);
  return joined.json();
}

/** Invalid lines joined part by part; see {@link createInvalidLinesJoin}. */
export interface InvalidLinesJoin {
  /** Adds a part's lines after those added before, as far as the list has room, and counts the rest. */
  add(part: InvalidLinesJson): void;
  /** The parts added so far, as {@link joinInvalidLines} joins them. */
  json(): InvalidLinesJson;
}

/**
 * Joins the invalid lines of parts as they come (the logs of a folder, the ranges of a file), in order: the first
 * {@link MAX_INVALID_LINES_LISTED} listed, the rest counted. Each part costs its own lines, not the list so far.
 */
export function createInvalidLinesJoin(): InvalidLinesJoin {
  const listed: SummaryInvalidLineJson[] = [];
  let omitted = 0;
  return {
    add(part) {
      const lines = part.invalidLines;
      const taken = Math.min(lines.length, MAX_INVALID_LINES_LISTED - listed.length);
      for (let index = 0; index < taken; index++) listed.push(lines[index] as SummaryInvalidLineJson);
      omitted += lines.length - taken + (part.invalidLinesOmitted ?? 0);
    },
    // A copy: a list read on the way stays as it was read.
    json: () => invalidLinesJson([...listed], omitted),
  };
}

/** Invalid lines of a summary, listed or not. */
export function invalidLineCount(summary: Pick<SummaryJson, 'invalidLines' | 'invalidLinesOmitted'>): number {
  return summary.invalidLines.length + (summary.invalidLinesOmitted ?? 0);
}

/** `JSON.stringify(value, null, 2)` as it reads nested `depth` levels deep in a 2-space indented document. */
function indentedJson(value: unknown, depth: number): string {
  // Stringified inside `depth` arrays, the value is indented as it is there; cutting the arrays' own lines off is
  // cheaper than indenting each of its lines afterwards, as a session's block is most of what `summary --json` does
  // on logs of short runs.
  let wrapped = value;
  for (let level = 0; level < depth; level++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  return text.slice(openingLength(depth), text.length - closingLength(depth));
}

/** The length of `depth` opening arrays' text, each on its line, before a value nested in them: `[\n  [\n    `. */
function openingLength(depth: number): number {
  // Level i (from 0) is `[`, a line feed and the next level's indent: 2 + 2 * (i + 1).
  return depth * 2 + depth * (depth + 1);
}

/** The length of their closing text after the value: `\n  ]\n]`. */
function closingLength(depth: number): number {
  // Level i is a line feed, its indent and `]`: 2 + 2 * i.
  return depth * 2 + depth * (depth - 1);
}

/** A session as it reads in the `summary --json` document's session list, without what separates it from others. */
export function sessionJsonBlock(json: SummarySessionJson): string {
  return indentedJson(json, 2);
}

/**
 * Writes the `summary --json` document a session at a time, exactly as `JSON.stringify(document, null, 2)` would
 * print it whole, so that memory holds one session however many the log has.
 */
export function createSummaryJsonWriter(write: (text: string) => Promise<void>) {
  let sessions = 0;
  /** Writes the next session's {@link sessionJsonBlock}. */
  async function sessionBlock(block: string): Promise<void> {
    const before = sessions === 0 ? '{\n  "sessions": [\n    ' : ',\n    ';
    sessions += 1;
    await write(before + block);
  }
  return {
    sessionBlock,
    /** Writes the next session. */
    session: (json: SummarySessionJson): Promise<void> => sessionBlock(sessionJsonBlock(json)),
    /** Closes the session list and writes the rest of the document. */
    async end(rest: Omit<SummaryJson, 'sessions'>): Promise<void> {
      const closing = sessions === 0 ? '{\n  "sessions": [],\n' : '\n  ],\n';
      // The rest as its own document, without its opening brace: its keys follow the sessions.
      await write(`${closing}${indentedJson(rest, 0).slice(2)}\n`);
    },
  };
}
