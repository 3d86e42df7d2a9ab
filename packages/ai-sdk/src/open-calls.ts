/**
 * The tool calls of one session that started and have not completed, as both bridges (the UI message stream and the
 * harness) hold them: bounded as core's normalizer bounds its own, so that a session of calls that never complete
 * holds, and ends, no more than {@link MAX_REMEMBERED_CALLS} of them. The calls past the bound are counted, so that
 * the session's end says how many it could not end.
 */

import { MAX_REMEMBERED_CALLS, MAX_REMEMBERED_ID_CHARS, rememberCall } from '@cursor-stream/core/tools';

/** The open calls of one session, the newest {@link MAX_REMEMBERED_CALLS}; see {@link createOpenCalls}. */
export interface OpenCalls<V> {
  /** How many calls are kept open. */
  readonly size: number;
  /**
   * How many calls were forgotten while open since the session began: pushed out by newer ones past
   * {@link MAX_REMEMBERED_CALLS}, or never kept, their id being longer than {@link MAX_REMEMBERED_ID_CHARS}.
   */
  readonly forgotten: number;
  /** Whether the call is kept open. */
  has(toolCallId: string): boolean;
  /** What was kept of the call, while it is kept open. */
  get(toolCallId: string): V | undefined;
  /** A call started: kept as the newest, the oldest forgotten past the bound. */
  open(toolCallId: string, value: V): void;
  /** A call completed. */
  close(toolCallId: string): void;
  /** The calls kept open, oldest first. */
  entries(): IterableIterator<[string, V]>;
  /** Forgets every call and the count of forgotten ones: the next session's calls are its own. */
  clear(): void;
}

/** A fresh {@link OpenCalls}. */
export function createOpenCalls<V>(): OpenCalls<V> {
  const calls = new Map<string, V>();
  let forgotten = 0;
  return {
    get size() {
      return calls.size;
    },
    get forgotten() {
      return forgotten;
    },
    has: (toolCallId) => calls.has(toolCallId),
    get: (toolCallId) => calls.get(toolCallId),
    open(toolCallId, value) {
      const known = calls.has(toolCallId);
      const size = calls.size;
      rememberCall(calls, toolCallId, value);
      // The map did not grow by a new call: it pushed out the oldest, or refused an id too long to keep.
      if (!known) forgotten += size + 1 - calls.size;
    },
    close: (toolCallId) => void calls.delete(toolCallId),
    entries: () => calls.entries(),
    clear() {
      calls.clear();
      forgotten = 0;
    },
  };
}

/** The `type` of the UI message stream's data chunk that says how many open tool calls a session forgot. */
export const FORGOTTEN_TOOL_CALLS_CHUNK_TYPE = 'data-forgotten-tool-calls';

/** The `rawValue` `type` of the harness's `raw` part that says how many open tool calls a turn forgot. */
export const FORGOTTEN_TOOL_CALLS_RAW_TYPE = 'forgotten-tool-calls';

/**
 * What a session's end says of the `count` open calls it forgot: that they were not ended, since their ids are
 * gone, and why.
 */
export function forgottenToolCallsText(count: number): string {
  const calls = count === 1 ? '1 tool call was' : `${count} tool calls were`;
  return (
    `${calls} forgotten while open (past ${MAX_REMEMBERED_CALLS} open at once the oldest are forgotten, and an id ` +
    `longer than ${MAX_REMEMBERED_ID_CHARS} characters is not kept): those that did not complete have no output.`
  );
}
