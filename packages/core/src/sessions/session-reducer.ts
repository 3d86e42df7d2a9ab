/**
 * Folds canonical events into session summaries: one per session (a log may hold several back to back), cut where
 * the normalizer cuts them (see `session-boundary.ts`). Each session's assistant text is kept within a bound (see
 * `kept-text.ts`), so a session of any length is summarized in bounded memory.
 */

import {
  type CanonicalEvent,
  type CanonicalEventType,
  type FinishEvent,
  type ToolCallEvent,
  type ToolName,
  type ToolResultEvent,
  type ToolResultStatus,
  type Usage,
  unreachable,
} from '../events/index.ts';
import type { FailureCode } from '../failures/index.ts';
import { sessionDialectOf } from '../session-dialect.ts';
import { createTextKeeper, type TextKeeper, type TextOmission } from './kept-text.ts';
import { isSessionContent, opensNewSession } from './session-boundary.ts';
import type { TextDigest } from './text-digest.ts';

/** One tool call of a session, its start and completion paired by exact id. */
export interface ToolCallSummary {
  toolCallId: string;
  toolName: ToolName;
  /** The completion's status, or `pending` while (and if, at the end) none arrived. */
  status: ToolResultStatus | 'pending';
  /** Line of the `tool-call`'s record; `null` without a start (or a location). */
  startLine: number | null;
  /** Line of the `tool-result`'s record; `null` while pending. */
  endLine: number | null;
  durationMs: number | null;
  /** A completion whose start never came. */
  orphan: boolean;
  /**
   * An orphan's arguments, as its completion repeats them (`null` when it has none); `null` for a call whose start
   * came, whose `tool-call` event holds them.
   */
  input: unknown;
}

/** Why a session failed, in the agent's words; see {@link SessionSummary.failure}. */
export interface SessionFailure {
  message: string;
  /** The class of the failure (`usage-limit`, `auth`, ...; `unknown` when the table of the CLI's sentences has none). */
  code: FailureCode;
  /** The line of the sentence (the `result`, or the output line); `null` when unknown. */
  line: number | null;
}

/** What a session came to. JSON-ready: absent values are `null`. */
export interface SessionSummary {
  sessionId: string | null;
  /**
   * The dialect that read the session's records, as the normalizer marks its `finish`, so that each session of a
   * stream mixing dialects has its own; before the finish, or when the finish has no mark (a copy of the
   * normalizer's), the one the caller named (see {@link SessionReducerOptions.dialect}).
   */
  dialect: string | null;
  model: string | null;
  /** From the session's `finish`: `success`, `error`, or `incomplete` (no finish, or a synthesized one). */
  status: 'success' | 'error' | 'incomplete';
  /**
   * The assistant text: every `text-delta` joined, whole up to `textHeadLength + textTailLength` UTF-16 units
   * (131,072 by default); past that, its first `textHeadLength` and last `textTailLength` units joined, with
   * {@link SessionSummary.textOmitted} saying what was left out between them.
   */
  text: string;
  /** Length of the whole assistant text, in UTF-16 units. */
  textLength: number;
  /** `null` when `text` is whole; else the units left out, `length` of them at offset `at` of `text`. */
  textOmitted: TextOmission | null;
  /** The text the `result` reported. */
  resultText: string | null;
  /**
   * Whether the whole assistant text equals `resultText` (compared by a digest once the text is cut); `null`
   * without a result text, or when the reducer keeps no digest (`textDigest: null`), the text was cut and the result
   * has its length.
   */
  textMatchesResult: boolean | null;
  /** In order of first sight. */
  toolCalls: ToolCallSummary[];
  /** Events per canonical type. */
  counts: Partial<Record<CanonicalEventType, number>>;
  durationMs: number | null;
  usage: Usage | null;
  /**
   * For a session that failed or ended without a result: the agent's own sentence saying why (the failed result's
   * text, else the nearest non-JSON output line before the end), from the `finish`; `null` when the log holds none.
   */
  failure: SessionFailure | null;
}

/** An incremental reducer; see {@link createSessionReducer}. */
export interface SessionReducer {
  /** Takes the next event. */
  push(event: CanonicalEvent): void;
  /** Sessions so far, the open one included. */
  sessions(): SessionSummary[];
}

/** Options of {@link createSessionReducer} and {@link reduceSessions}. */
export interface SessionReducerOptions {
  /**
   * The dialect to report for a session whose `finish` the normalizer did not mark with its own (see
   * {@link SessionSummary.dialect}), e.g. the normalizer's `dialect` once the stream has ended.
   */
  dialect?: string | undefined;
  /**
   * UTF-16 units of a long assistant text kept from its start, and {@link textTailLength} from its end; a text of
   * at most their sum is kept whole. `Infinity` keeps every text whole, as far as one string can hold it (about
   * 512 MiB in V8, past which the reducer would throw).
   *
   * @defaultValue 65536 (`TEXT_HEAD_LENGTH`)
   */
  textHeadLength?: number | undefined;
  /** See {@link textHeadLength}. @defaultValue 65536 (`TEXT_TAIL_LENGTH`) */
  textTailLength?: number | undefined;
  /**
   * Creates the digest a cut text is compared with the result's text by: a SHA-256 in plain TypeScript by default
   * (runs everywhere); in Node, `createHash('sha256')` over the text as UTF-16LE is the same digest, several times
   * faster. `null` keeps none, for a caller that does not read {@link SessionSummary.textMatchesResult}.
   */
  textDigest?: (() => TextDigest) | null | undefined;
}

interface SessionBuilder {
  summary: SessionSummary;
  /** The open session's text; gone once the session is closed and its text settled in the summary. */
  text: TextKeeper | undefined;
  calls: Map<string, ToolCallSummary>;
  hasContent: boolean;
  finished: boolean;
}

function newBuilder(dialect: string | null, options: SessionReducerOptions): SessionBuilder {
  const summary: SessionSummary = {
    sessionId: null,
    dialect,
    model: null,
    status: 'incomplete',
    text: '',
    textLength: 0,
    textOmitted: null,
    resultText: null,
    textMatchesResult: null,
    toolCalls: [],
    counts: {},
    durationMs: null,
    usage: null,
    failure: null,
  };
  const text = createTextKeeper({
    headLength: options.textHeadLength,
    tailLength: options.textTailLength,
    digest: options.textDigest,
  });
  return { summary, text, calls: new Map(), hasContent: false, finished: false };
}

/** Copies what is kept of the text into the summary. */
function settleText(builder: SessionBuilder): void {
  if (builder.text === undefined) return;
  const kept = builder.text.kept();
  builder.summary.text = kept.text;
  builder.summary.textLength = kept.length;
  builder.summary.textOmitted = kept.omitted;
}

/** Closes a session: its text is final, so only what is kept of it stays. */
function close(builder: SessionBuilder): SessionSummary {
  settleText(builder);
  builder.text = undefined;
  return builder.summary;
}

function callOf(builder: SessionBuilder, toolCallId: string, toolName: ToolName): ToolCallSummary {
  let call = builder.calls.get(toolCallId);
  if (call === undefined) {
    call = {
      toolCallId,
      toolName,
      status: 'pending',
      startLine: null,
      endLine: null,
      durationMs: null,
      orphan: true,
      input: null,
    };
    builder.calls.set(toolCallId, call);
    builder.summary.toolCalls.push(call);
  }
  return call;
}

function applyToolCall(builder: SessionBuilder, event: ToolCallEvent): void {
  // A start after its call has completed is the id used again, for another run of the tool: a call of its own.
  const known = builder.calls.get(event.toolCallId);
  if (known !== undefined && !known.orphan && known.status !== 'pending')
    builder.calls.delete(event.toolCallId);
  const call = callOf(builder, event.toolCallId, event.toolName);
  // The same start twice, before a result, is one call: the first one counts.
  if (!call.orphan) return;
  call.orphan = false;
  call.input = null;
  call.startLine = event.loc?.line ?? null;
  if (event.toolName !== 'unknown') call.toolName = event.toolName;
}

function applyToolResult(builder: SessionBuilder, event: ToolResultEvent): void {
  const call = callOf(builder, event.toolCallId, event.toolName);
  // A repeated completion adds nothing; the first one counts.
  if (call.status !== 'pending') return;
  call.status = event.status;
  call.endLine = event.loc?.line ?? null;
  call.durationMs = event.durationMs ?? null;
  if (call.orphan && event.input !== undefined) call.input = event.input;
  if (call.toolName === 'unknown') call.toolName = event.toolName;
}

function applyFinish(builder: SessionBuilder, event: FinishEvent): void {
  const { summary } = builder;
  summary.dialect = sessionDialectOf(event) ?? summary.dialect;
  summary.status = event.finishReason === 'incomplete' ? 'incomplete' : event.isError ? 'error' : 'success';
  summary.resultText = event.text ?? null;
  // A finish ends its session's text (any text after it opens the next session), so the comparison is final.
  summary.textMatchesResult =
    summary.resultText === null ? null : (builder.text?.equals(summary.resultText) ?? null);
  summary.durationMs = event.durationMs ?? null;
  summary.usage = event.usage ?? null;
  const failure = event.failure;
  summary.failure =
    failure === undefined
      ? null
      : { message: failure.message, code: failure.code, line: failure.loc?.line ?? null };
}

/** A copy the caller may keep: the open session's summary goes on changing. */
function snapshot(summary: SessionSummary): SessionSummary {
  return {
    ...summary,
    textOmitted: summary.textOmitted === null ? null : { ...summary.textOmitted },
    toolCalls: summary.toolCalls.map((call) => ({ ...call })),
    counts: { ...summary.counts },
    usage: summary.usage === null ? null : { ...summary.usage },
    failure: summary.failure === null ? null : { ...summary.failure },
  };
}

function apply(builder: SessionBuilder, event: CanonicalEvent): void {
  const { summary } = builder;
  summary.counts[event.type] = (summary.counts[event.type] ?? 0) + 1;
  // Events after a session's finish (a next run's preamble in the same log) do not name it.
  const named = !builder.finished || event.type === 'finish';
  if (summary.sessionId === null && event.sessionId !== undefined && named)
    summary.sessionId = event.sessionId;
  switch (event.type) {
    case 'stream-start':
      summary.model ??= event.model ?? null;
      break;
    case 'text-delta':
      builder.text?.append(event.text);
      break;
    case 'tool-call':
      applyToolCall(builder, event);
      break;
    case 'tool-result':
      applyToolResult(builder, event);
      break;
    case 'finish':
      applyFinish(builder, event);
      break;
    // Counted only: what the summary holds comes from the events above.
    case 'user-message':
    case 'reasoning-delta':
    case 'reasoning-end':
    case 'error':
    case 'status':
    case 'interaction':
    case 'usage':
    case 'plan':
    case 'unknown':
    case 'invalid-line':
      break;
    default:
      unreachable(event);
  }
}

/**
 * Creates a session reducer. It pairs tool calls by exact id whatever their order (completions out of order or
 * interleaved, a completion before its start), keeps a completion without a start (`orphan: true`), counts a
 * repeated start or completion once, and leaves calls open at the end `pending`, never failed.
 *
 * Each session's assistant text is kept whole up to 131,072 UTF-16 units and as its first and last 65,536 past that
 * (see {@link SessionReducerOptions.textHeadLength}), so memory per session is bounded whatever the length of its
 * text, and {@link SessionSummary.textMatchesResult} still compares the whole text with the result's.
 */
export function createSessionReducer(options: SessionReducerOptions = {}): SessionReducer {
  const dialect = options.dialect ?? null;
  const done: SessionSummary[] = [];
  let current: SessionBuilder | undefined;

  return {
    push(event) {
      if (current === undefined) {
        current = newBuilder(dialect, options);
      } else if (opensNewSession(event, current)) {
        // Lines before any session content (a log of noise) are no session of their own.
        if (current.hasContent) done.push(close(current));
        current = newBuilder(dialect, options);
      }
      if (isSessionContent(event)) current.hasContent = true;
      if (event.type === 'finish') current.finished = true;
      apply(current, event);
    },
    sessions() {
      if (current !== undefined) settleText(current);
      const all = current === undefined || !current.hasContent ? done : [...done, current.summary];
      return all.map(snapshot);
    },
  };
}

/** Folds a whole list of events into session summaries; see {@link createSessionReducer}. */
export function reduceSessions(
  events: Iterable<CanonicalEvent>,
  options: SessionReducerOptions = {},
): SessionSummary[] {
  const reducer = createSessionReducer(options);
  for (const event of events) reducer.push(event);
  return reducer.sessions();
}
