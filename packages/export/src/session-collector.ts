/**
 * Folds one log's canonical events into finished sessions, one at a time, with what exports need besides the
 * core's summary: each tool call's wall-clock start and completion, and (on request) the
 * calls' arguments and results. State is one open session; a finished session is handed on and forgotten.
 */

import {
  type CanonicalEvent,
  checkUsage,
  createRecordTimeIndex,
  createSessionReducer,
  eventTimes,
  isSessionContent,
  type RecordTimes,
  type SessionFailure,
  type SessionReducer,
  type SessionSummary,
  type ToolResultStatus,
  type Usage,
  unreachable,
} from '@cursor-stream/core/normalize';
import { isFailedStatus } from '@cursor-stream/core/sessions';
import { mcpToolName } from '@cursor-stream/core/tools';
import { jsonText } from './json-text.ts';

/** One tool call of an exported session. Absent values are `null`. */
export interface ExportToolCall {
  /** The id exactly as sent, newlines kept. */
  toolCallId: string;
  toolName: string;
  /** The tool's name as the log sent it (`shellToolCall`, `mcpToolCall`, ...). */
  providerToolName: string | null;
  /** For an `mcp` call, the MCP tool its input names (`server-tool`); `null` otherwise or when it names none. */
  mcpToolName: string | null;
  /** The result arm (`success`, `failure`, `rejected`, ...), or `pending` when no completion came. */
  status: ToolResultStatus | 'pending';
  /** Completed with any status but `success`. */
  isError: boolean;
  /** A completion whose start never came. */
  orphan: boolean;
  startLine: number | null;
  endLine: number | null;
  /** Wall-clock start (ms since the epoch): `startedAtMs`, else the start record's `timestamp_ms`. */
  startedAtMs: number | null;
  /** Wall-clock completion: `completedAtMs`, else the completion record's `timestamp_ms`. */
  completedAtMs: number | null;
  durationMs: number | null;
  /** The arguments; only kept when content is asked for (`undefined` otherwise). */
  input?: unknown;
  /** The result arm's payload; only kept when content is asked for. */
  output?: unknown;
}

/** One finished session of a log, as every export format reads it. */
export interface ExportSession {
  /** The log it came from, as the caller named it. */
  file: string;
  /** 0-based position of the session in its log. */
  index: number;
  sessionId: string | null;
  dialect: string | null;
  model: string | null;
  status: SessionSummary['status'];
  /** The agent's own sentence on why it failed, and where (the core's {@link SessionSummary.failure}). */
  failure: SessionFailure | null;
  usage: Usage | null;
  /** As the `result` reports it. */
  durationMs: number | null;
  /** Line of the session's `finish` (its result), which reports its usage and duration; `null` when unknown. */
  finishLine: number | null;
  /** The earliest and latest record times of the session; `null` when its records carry none. */
  startedAtMs: number | null;
  endedAtMs: number | null;
  /** Lines of its first and last events (`null` when no event had a location). */
  firstLine: number | null;
  lastLine: number | null;
  toolCalls: ExportToolCall[];
}

/** Options of {@link createSessionCollector}. */
export interface SessionCollectorOptions {
  /** The log's name, copied to every session. */
  file: string;
  /** Keep tool arguments and results (for `--include-content`). */
  includeContent?: boolean;
  /**
   * The text a kept argument or result is exported as (OTLP: its JSON, cut to the attribute length). Kept as this text
   * rather than as the value, so that a session's calls hold no more than the export writes of them. Default: the
   * value as it is.
   */
  contentText?: (value: unknown) => unknown;
  /** Characters of content one session keeps; @defaultValue {@link MAX_SESSION_CONTENT_CHARS} */
  maxContentChars?: number;
  /** Receives each session as it finishes, in log order. */
  onSession(session: ExportSession): void | Promise<void>;
  /**
   * Hears of each value left out of the sessions, once, with the line of its record: a record time no date can hold
   * (see the core's `readRecordTime`), a token count no sum can take (`checkUsage`). The message ends `; left out`.
   */
  onProblem?(line: number | null, message: string): void;
}

/** Feeds a {@link SessionCollectorOptions.onSession} from a log's records and events. */
export interface SessionCollector {
  /**
   * The raw record at `line` (at byte `offset`, when records may share a line) and the dialect that read it, for its
   * times; call before the events it produces.
   */
  observeRecord(line: number, record: unknown, dialect?: string, offset?: number): void;
  /** The index the next event belongs to (the session it is folded into). */
  readonly sessionIndex: number;
  /** Takes the next event; resolves once a session it finished has been handed on. */
  push(event: CanonicalEvent): Promise<void>;
  /** At the end of the log: hands on a session left open (the normalizer normally finishes every one). */
  end(): Promise<void>;
}

interface CallExtras {
  providerToolName: string | null;
  mcpToolName: string | null;
  startedAtMs: number | null;
  completedAtMs: number | null;
  input?: unknown;
  output?: unknown;
}

/**
 * Tool calls one session exports at most. A session's calls are kept until it ends (its spans hang under it, its rows
 * carry its index), so a log of endless calls in one session would grow without end: past this, the calls are
 * counted and said, not exported. Far above any real session.
 */
export const MAX_EXPORTED_TOOL_CALLS = 65_536;

/**
 * Characters of arguments and results one session keeps for its export (as {@link SessionCollectorOptions.contentText}
 * gives them, or as the JSON text of the values): a session's calls are kept until it ends, so past this the content
 * of its further calls is counted and said, not kept.
 */
export const MAX_SESSION_CONTENT_CHARS = 32 * 1024 * 1024;

interface OpenSession {
  reducer: SessionReducer;
  extras: Map<string, CallExtras>;
  /** Tool calls past {@link MAX_EXPORTED_TOOL_CALLS}, counted by their `tool-call` events. */
  callsLeftOut: number;
  /** Characters of content kept, and the arguments and results left out past {@link MAX_SESSION_CONTENT_CHARS}. */
  contentChars: number;
  contentLeftOut: number;
  startedAtMs: number | null;
  endedAtMs: number | null;
  firstLine: number | null;
  lastLine: number | null;
  finishLine: number | null;
}

function openSession(): OpenSession {
  return {
    reducer: createSessionReducer(),
    extras: new Map(),
    callsLeftOut: 0,
    contentChars: 0,
    contentLeftOut: 0,
    startedAtMs: null,
    endedAtMs: null,
    firstLine: null,
    lastLine: null,
    finishLine: null,
  };
}

function earliest(times: RecordTimes | undefined): number | undefined {
  return times?.startedAtMs ?? times?.timestampMs ?? times?.completedAtMs;
}

function latest(times: RecordTimes | undefined): number | undefined {
  return times?.completedAtMs ?? times?.timestampMs ?? times?.startedAtMs;
}

function noteTimes(session: OpenSession, times: RecordTimes | undefined): void {
  const start = earliest(times);
  const end = latest(times);
  if (start !== undefined && (session.startedAtMs === null || start < session.startedAtMs))
    session.startedAtMs = start;
  if (end !== undefined && (session.endedAtMs === null || end > session.endedAtMs)) session.endedAtMs = end;
}

function extrasOf(session: OpenSession, toolCallId: string): CallExtras {
  let extras = session.extras.get(toolCallId);
  if (extras === undefined) {
    extras = { providerToolName: null, mcpToolName: null, startedAtMs: null, completedAtMs: null };
    session.extras.set(toolCallId, extras);
  }
  return extras;
}

/** What a session keeps of an argument or a result: `undefined` for nothing (content not asked for, or past the bound). */
type ContentKeeper = (session: OpenSession, value: unknown) => unknown;

function noteEvent(
  session: OpenSession,
  event: CanonicalEvent,
  times: RecordTimes | undefined,
  content: ContentKeeper | undefined,
) {
  switch (event.type) {
    case 'tool-call': {
      const extras = extrasOf(session, event.toolCallId);
      extras.providerToolName ??= event.providerToolName;
      if (event.toolName === 'mcp') extras.mcpToolName ??= mcpToolName(event.input) ?? null;
      extras.startedAtMs ??= times?.startedAtMs ?? times?.timestampMs ?? null;
      if (content !== undefined && extras.input === undefined) extras.input = content(session, event.input);
      return;
    }
    case 'tool-result': {
      const extras = extrasOf(session, event.toolCallId);
      extras.providerToolName ??= event.providerToolName;
      // A completion may repeat the start's time; it counts when the start record had none.
      extras.startedAtMs ??= times?.startedAtMs ?? null;
      extras.completedAtMs ??= times?.completedAtMs ?? times?.timestampMs ?? null;
      if (content !== undefined && extras.output === undefined)
        extras.output = content(session, event.output);
      return;
    }
    // The session reducer's summary holds what the rows need of them.
    case 'stream-start':
    case 'user-message':
    case 'reasoning-delta':
    case 'reasoning-end':
    case 'text-delta':
    case 'finish':
    case 'error':
    case 'status':
    case 'interaction':
    case 'usage':
    case 'plan':
    case 'unknown':
    case 'invalid-line':
      return;
    default:
      unreachable(event);
  }
}

function finishedSession(
  session: OpenSession,
  dialect: string | null,
  summary: SessionSummary,
  options: SessionCollectorOptions,
  index: number,
): ExportSession {
  const toolCalls = summary.toolCalls.map((call): ExportToolCall => {
    const extras = session.extras.get(call.toolCallId);
    const exported: ExportToolCall = {
      ...call,
      providerToolName: extras?.providerToolName ?? null,
      mcpToolName: extras?.mcpToolName ?? null,
      isError: isFailedStatus(call.status),
      startedAtMs: extras?.startedAtMs ?? null,
      completedAtMs: extras?.completedAtMs ?? null,
    };
    if (extras !== undefined && 'input' in extras) exported.input = extras.input;
    if (extras !== undefined && 'output' in extras) exported.output = extras.output;
    return exported;
  });
  const usage = checkUsage(summary.usage);
  for (const message of usage.problems) options.onProblem?.(session.finishLine, `${message}; left out`);
  return {
    file: options.file,
    index,
    sessionId: summary.sessionId,
    // The dialect marked on the session's finish; the last record's when it has none (a finish from another thread).
    dialect: summary.dialect ?? dialect,
    model: summary.model,
    status: summary.status,
    failure: summary.failure,
    usage: usage.usage,
    durationMs: summary.durationMs,
    finishLine: session.finishLine,
    startedAtMs: session.startedAtMs,
    endedAtMs: session.endedAtMs,
    firstLine: session.firstLine,
    lastLine: session.lastLine,
    toolCalls,
  };
}

/** `event` naming no session. */
function unnamed(event: CanonicalEvent): CanonicalEvent {
  if (event.sessionId === undefined) return event;
  const { sessionId: _named, ...rest } = event;
  return rest as CanonicalEvent;
}

/**
 * A collector for one log. A session ends at its `finish` (the normalizer gives each exactly one); events between a
 * `finish` and the next session's first event (trailing noise) are counted with the next session, which they do not name.
 */
export function createSessionCollector(options: SessionCollectorOptions): SessionCollector {
  const times = createRecordTimeIndex();
  const toText = options.contentText ?? ((value: unknown) => value);
  const maxContentChars = options.maxContentChars ?? MAX_SESSION_CONTENT_CHARS;
  const content: ContentKeeper | undefined =
    options.includeContent === true
      ? (held, value) => {
          if (value === undefined || held.contentChars >= maxContentChars) {
            if (value !== undefined) held.contentLeftOut += 1;
            return undefined;
          }
          const kept = toText(value);
          held.contentChars += typeof kept === 'string' ? kept.length : jsonText(kept).length;
          return kept;
        }
      : undefined;
  let session = openSession();
  // Whether the events pushed since the last finish are all it trails, with no content of the next session yet.
  let trailing = false;
  let index = 0;
  let dialect: string | null = null;
  // A record's times come with each of its events; its problems are said once.
  let problemLine: number | null = null;

  /** Whether the session keeps this tool event: those of calls past the bound are only counted. */
  function keepsToolEvent(event: CanonicalEvent): boolean {
    if (event.type !== 'tool-call' && event.type !== 'tool-result') return true;
    if (session.extras.has(event.toolCallId) || session.extras.size < MAX_EXPORTED_TOOL_CALLS) return true;
    if (event.type === 'tool-call') session.callsLeftOut += 1;
    return false;
  }

  async function flush(): Promise<void> {
    if (session.contentLeftOut > 0) {
      const count = session.contentLeftOut.toLocaleString('en-US');
      const bound = maxContentChars.toLocaleString('en-US');
      options.onProblem?.(
        session.finishLine,
        `the content of ${count} tool arguments and results past the first ${bound} characters of a session; left out`,
      );
    }
    if (session.callsLeftOut > 0) {
      const count = session.callsLeftOut.toLocaleString('en-US');
      const bound = MAX_EXPORTED_TOOL_CALLS.toLocaleString('en-US');
      options.onProblem?.(
        session.finishLine,
        `${count} tool calls past the first ${bound} of a session; left out`,
      );
    }
    const summaries = session.reducer.sessions();
    for (const summary of summaries)
      await options.onSession(finishedSession(session, dialect, summary, options, index));
    if (summaries.length > 0) index++;
    session = openSession();
  }

  return {
    observeRecord(line, record, recordDialect, offset) {
      times.observe(line, record, offset);
      // Records are seen a read batch ahead of their events: only a session whose finish is unmarked needs this.
      if (recordDialect !== undefined) dialect = recordDialect;
    },
    get sessionIndex() {
      return index;
    },
    async push(event) {
      const line = event.loc?.line;
      const recordTimes = eventTimes(times, event);
      if (line !== undefined) {
        session.firstLine ??= line;
        session.lastLine = line;
        if (event.type === 'finish') session.finishLine = line;
      }
      if (recordTimes?.problems !== undefined && line !== problemLine) {
        problemLine = line ?? null;
        for (const problem of recordTimes.problems)
          options.onProblem?.(line ?? null, `${problem.message}; left out`);
      }
      noteTimes(session, recordTimes);
      if (!keepsToolEvent(event)) return;
      noteEvent(session, event, recordTimes, content);
      if (isSessionContent(event)) trailing = false;
      // What trails a finish (a status, an answer to a permission) does not name the next session, as `summary`,
      // which keeps it with the session it follows, does not let it.
      session.reducer.push(trailing ? unnamed(event) : event);
      if (event.type === 'finish') {
        await flush();
        trailing = true;
      }
    },
    end: flush,
  };
}
