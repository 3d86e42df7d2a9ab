/**
 * The sessions of a log, handed on one at a time as each finishes, each held in bounded memory: its assistant text
 * beyond a bound kept as head and tail (by the session reducer), its tool calls beyond a bound only counted. What a
 * caller keeps is then the open session, never the sessions before it, so memory does not grow with the number of
 * sessions in a log.
 */

import type { CanonicalEvent, CanonicalEventType, SourceLocation } from '../events/index.ts';
import { isSessionContent, opensNewSession } from './session-boundary.ts';
import {
  createSessionReducer,
  type SessionReducer,
  type SessionReducerOptions,
  type SessionSummary,
  type ToolCallSummary,
} from './session-reducer.ts';

/** Tool calls listed per session; calls past it are counted by their starts, and their events stay in `counts`. */
export const MAX_TOOL_CALLS_LISTED = 1000;

/** A finished session: the session reducer's summary, its tool calls bounded. */
export interface BoundedSession {
  /** The session reducer's summary: its text whole or head and tail, as `textLength` and `textOmitted` say. */
  summary: SessionSummary;
  /** Tool calls past {@link MAX_TOOL_CALLS_LISTED}, counted by their `tool-call` events. */
  toolCallsOmitted: number;
  /**
   * Those of the calls past the bound that did not succeed, counted by their `tool-result` events whose status is
   * neither `success` nor `pending`, as a listed call's would be. Past the bound no call is remembered, so a failed
   * completion said twice counts twice: the count is at most one off per such repeat.
   */
  failedCallsOmitted: number;
  /** Where the session's `finish` is; `undefined` for a synthesized one (or none). */
  finishLoc: SourceLocation | undefined;
}

/**
 * A finished session from a summary.
 *
 * @param more - Tool calls left out and the location of the finish, when known.
 */
export function finishedSession(
  summary: SessionSummary,
  more: {
    toolCallsOmitted?: number;
    failedCallsOmitted?: number;
    finishLoc?: SourceLocation | undefined;
  } = {},
): BoundedSession {
  return {
    summary,
    toolCallsOmitted: more.toolCallsOmitted ?? 0,
    failedCallsOmitted: more.failedCallsOmitted ?? 0,
    finishLoc: more.finishLoc,
  };
}

/** Whether a call that ended so failed: neither a success nor still pending (a source may say `pending` as its arm). */
export function isFailedStatus(status: ToolCallSummary['status']): boolean {
  return status !== 'success' && status !== 'pending';
}

/** Options of {@link createBoundedSessions}. */
export interface BoundedSessionsOptions {
  /** The dialect to report in each summary. */
  dialect?: string | undefined;
  /** Tool calls listed per session; {@link MAX_TOOL_CALLS_LISTED} by default. */
  maxToolCalls?: number;
  /** Bounds of the kept text; see {@link SessionReducerOptions.textHeadLength}. */
  textHeadLength?: number;
  textTailLength?: number;
  /**
   * The digest a cut text is compared with the result's by; see {@link SessionReducerOptions.textDigest}. In Node,
   * `createNodeTextDigest` from `@cursor-stream/node/text-digest` is the same digest, several times faster.
   */
  textDigest?: SessionReducerOptions['textDigest'];
}

interface OpenSession {
  reducer: SessionReducer;
  listedCalls: Set<string>;
  unlistedCounts: Partial<Record<CanonicalEventType, number>>;
  toolCallsOmitted: number;
  failedCallsOmitted: number;
  hasContent: boolean;
  finished: boolean;
  finishLoc: SourceLocation | undefined;
}

/**
 * Cuts a stream of canonical events into sessions where the session reducer cuts them, and calls `onSession` with
 * each as soon as it ends (a new session begins, or `end` is called).
 */
export function createBoundedSessions(
  options: BoundedSessionsOptions,
  onSession: (session: BoundedSession) => void,
): { push(event: CanonicalEvent): void; end(): void } {
  const maxToolCalls = options.maxToolCalls ?? MAX_TOOL_CALLS_LISTED;
  // The spread last: properties added after a spread put V8 on a slow path, a few microseconds per log read.
  const reducerOptions = {
    textHeadLength: options.textHeadLength,
    textTailLength: options.textTailLength,
    textDigest: options.textDigest,
    ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
  };

  function open(): OpenSession {
    return {
      reducer: createSessionReducer(reducerOptions),
      listedCalls: new Set(),
      unlistedCounts: {},
      toolCallsOmitted: 0,
      failedCallsOmitted: 0,
      hasContent: false,
      finished: false,
      finishLoc: undefined,
    };
  }

  let current = open();

  function close(session: OpenSession): void {
    const summary = session.reducer.sessions()[0];
    if (!session.hasContent || summary === undefined) return;
    for (const [type, count] of Object.entries(session.unlistedCounts) as [CanonicalEventType, number][]) {
      summary.counts[type] = (summary.counts[type] ?? 0) + count;
    }
    onSession(
      finishedSession(summary, {
        toolCallsOmitted: session.toolCallsOmitted,
        failedCallsOmitted: session.failedCallsOmitted,
        finishLoc: session.finishLoc,
      }),
    );
  }

  /** Whether the reducer sees this tool event; past the bound, events of calls it does not list are only counted. */
  function listsToolEvent(session: OpenSession, toolCallId: string): boolean {
    if (session.listedCalls.has(toolCallId)) return true;
    if (session.listedCalls.size >= maxToolCalls) return false;
    session.listedCalls.add(toolCallId);
    return true;
  }

  function feed(session: OpenSession, event: CanonicalEvent): void {
    if (
      (event.type === 'tool-call' || event.type === 'tool-result') &&
      !listsToolEvent(session, event.toolCallId)
    ) {
      session.unlistedCounts[event.type] = (session.unlistedCounts[event.type] ?? 0) + 1;
      if (event.type === 'tool-call') session.toolCallsOmitted += 1;
      else if (isFailedStatus(event.status)) session.failedCallsOmitted += 1;
    } else {
      session.reducer.push(event);
    }
  }

  return {
    push(event) {
      if (opensNewSession(event, current)) {
        close(current);
        current = open();
      }
      if (isSessionContent(event)) current.hasContent = true;
      if (event.type === 'finish') {
        current.finished = true;
        current.finishLoc = event.loc;
      }
      feed(current, event);
    },
    end() {
      close(current);
      current = open();
    },
  };
}
