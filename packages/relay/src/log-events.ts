/**
 * A run's events, read from its log: the canonical events `cursor-stream normalize` gives for the same bytes, each
 * with its id and its position in the run, and at the end the run's own failure (why it stopped, when the log does
 * not say it) before the one `finish`. The live run and every replay use this, so both give the same events.
 */

import { type CanonicalEvent, createNormalizer, stringifyEvent } from '@cursor-stream/core/normalize';
import { createEventIdAssigner, type EventId, formatEventId } from './event-ids.ts';

/** Why a run failed, when the log does not say it itself (an interruption, a timeout, a non-zero exit). */
export interface RunFailure {
  code: string;
  message: string;
}

/** An event of a run with its id and position. */
export interface RunEvent {
  /** 0 for the run's first event, then 1, 2, ... */
  seq: number;
  id: EventId;
  /** {@link id} as text, the SSE `id:`. */
  idText: string;
  event: CanonicalEvent;
  /** The event as JSON (the canonical format's message). */
  json: string;
}

/**
 * Events whose JSON is at least this long (UTF-16 units) are large: their bytes are made once and shared by the
 * clients sending them, written to the journal a slice at a time, and a run's ring keeps only their JSON.
 */
export const LARGE_EVENT_JSON = 32 * 1024;

/**
 * The event as a run keeps it while clients may still ask for it: a large event without its object (whose text is
 * as large as its JSON), parsed again from its JSON when asked and shared while anyone holds it, as a journal's
 * events are. A small event as it is.
 */
export function keptEvent(event: RunEvent): RunEvent {
  if (event.json.length < LARGE_EVENT_JSON) return event;
  const { seq, id, idText, json } = event;
  let parsed = new WeakRef(event.event);
  return {
    seq,
    id,
    idText,
    json,
    get event() {
      let value = parsed.deref();
      if (value === undefined) {
        value = JSON.parse(json) as CanonicalEvent;
        parsed = new WeakRef(value);
      }
      return value;
    },
  };
}

/** Reads a run's log into {@link RunEvent}s; see {@link createLogEventReader}. */
export interface LogEventReader {
  /** Reads more of the log. */
  feed(chunk: Uint8Array): RunEvent[];
  /** The log is complete: the last events, with `failure` as an `error` event before a synthesized `finish`. */
  end(failure: RunFailure | null): RunEvent[];
  /** How many events it has given. */
  readonly count: number;
  /** The dialect the log was detected as, once it is. */
  readonly dialect: string | undefined;
}

/** Creates a reader of one run's log. */
export function createLogEventReader(): LogEventReader {
  const normalizer = createNormalizer();
  const assign = createEventIdAssigner();
  let count = 0;
  let sessionId: string | undefined;
  let finished = false;

  const wrap = (events: readonly CanonicalEvent[]): RunEvent[] =>
    events.map((event) => {
      sessionId ??= event.sessionId;
      if (event.type === 'finish') finished = true;
      const id = assign(event);
      return { seq: count++, id, idText: formatEventId(id), event, json: stringifyEvent(event) };
    });

  return {
    feed: (chunk) => wrap(normalizer.feed(chunk)),
    end(failure) {
      const last = [...normalizer.end()];
      if (failure === null) return wrap(last);
      // The failure goes right before the finish the normalizer synthesized for a log without a result; a log
      // that has its result already said how the run ended.
      const located = sessionId === undefined ? {} : { sessionId };
      const error: CanonicalEvent = {
        type: 'error',
        message: failure.message,
        code: failure.code,
        ...located,
      };
      const at = last.findIndex((event) => event.type === 'finish' && event.finishReason === 'incomplete');
      if (at !== -1) {
        const finish = last[at];
        if (finish?.type === 'finish') last[at] = { ...finish, isError: true };
        return wrap([...last.slice(0, at), error, ...last.slice(at)]);
      }
      if (!finished && !last.some((event) => event.type === 'finish')) {
        // Nothing the log held ended a session (the agent could not start, or wrote lines that are no records): the
        // run still ends with its reason and a finish, after whatever it did write.
        const finish: CanonicalEvent = {
          type: 'finish',
          finishReason: 'incomplete',
          isError: true,
          pendingToolCallIds: [],
          ...located,
        };
        return wrap([...last, error, finish]);
      }
      return wrap(last);
    },
    get count() {
      return count;
    },
    get dialect() {
      return normalizer.dialect;
    },
  };
}
