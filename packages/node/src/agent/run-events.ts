/**
 * The events of one run: the normalizer's, with the session's `finish` held back until the process is gone, so the
 * run's own `error` (exit code, signal, timeout, ...) can come before it and the `finish` is always the last event.
 * Each session of the output keeps its own `finish`: a run that holds two sessions (an agent that started a fresh
 * chat) yields two, and the run's is the last.
 *
 * The run's summary (text, tool calls) is folded as events pass through the bounded sessions `cursor-stream summary`
 * uses: the text as head and tail past the session reducer's bound, the first `MAX_TOOL_CALLS_LISTED` tool calls
 * listed and the others counted, and no session but the latest kept, so that what a run holds does not grow with its
 * length. The events themselves are kept only while asked.
 */

import {
  type CanonicalEvent,
  createNormalizer,
  type FinishEvent,
  isSessionContent,
} from '@cursor-stream/core/normalize';
import { type BoundedSession, createBoundedSessions } from '@cursor-stream/core/sessions';
import type { AgentRunError, StreamEnd } from './agent-outcome.ts';

/** Non-JSON stdout lines kept for the result; each is an excerpt of at most 120 characters. */
const MAX_NOISE_LINES = 64;

/** The agent named a different session than the one it was asked to resume. */
export interface SessionChange {
  /** The id passed as `--resume`. */
  requested: string;
  /** The id the agent reported. */
  actual: string;
}

/** What {@link createRunEvents} reports as the stream goes. */
export interface RunEventHooks {
  /** The first session id the stream names. */
  onSessionId?(sessionId: string): void;
  /** A `result` arrived (its `finish` is held). */
  onResult?(): void;
}

/** The events of one run; see {@link createRunEvents}. */
export interface RunEvents {
  /** Feeds stdout; returns the events to hand out now. */
  feed(chunk: Uint8Array): CanonicalEvent[];
  /** Ends the stream; returns what it told about its end, and the events still to hand out before the final ones. */
  end(): { stream: StreamEnd; events: CanonicalEvent[] };
  /** The final events: the run's `error` (unless the agent reported it) and the one `finish`. */
  close(error: AgentRunError | null): CanonicalEvent[];
  /** Every event handed out, in order, while they are kept (see {@link RunEventOptions.keep}); else none. */
  readonly kept: readonly CanonicalEvent[];
  /** Stops keeping events and lets go of those kept. */
  stopKeeping(): void;
  /**
   * The run's last session, folded from every event handed out, once {@link RunEvents.close} has ended it; before,
   * the latest session that ended. Bounded: see `createBoundedSessions`.
   */
  readonly session: BoundedSession | undefined;
  readonly sessionId: string | undefined;
  readonly sessionChange: SessionChange | null;
  readonly stdoutNoise: readonly string[];
}

/** Options of {@link createRunEvents}. */
export interface RunEventOptions {
  dialect?: string | undefined;
  /** The session asked for with `--resume`. */
  resume?: string | undefined;
  hooks?: RunEventHooks;
  /** Keep the events handed out until {@link RunEvents.stopKeeping}. @defaultValue `true` */
  keep?: boolean;
}

/** Creates the event recorder of one run. */
export function createRunEvents(options: RunEventOptions = {}): RunEvents {
  const normalizer = createNormalizer(options.dialect === undefined ? {} : { dialect: options.dialect });
  let kept: CanonicalEvent[] | undefined = options.keep === false ? undefined : [];
  let session: BoundedSession | undefined;
  // The run's result never compares its text with the result's, so no digest of a long text is kept.
  const sessions = createBoundedSessions({ textDigest: null }, (ended) => {
    session = ended;
  });
  const stdoutNoise: string[] = [];
  let held: FinishEvent | undefined;
  let sawResult = false;
  let agentFailed = false;
  let agentError: string | undefined;
  let lastErrorMessage: string | undefined;
  let sessionId: string | undefined;
  let sessionChange: SessionChange | null = null;

  function observe(event: CanonicalEvent): void {
    if (sessionId === undefined && event.sessionId !== undefined) {
      sessionId = event.sessionId;
      if (options.resume !== undefined && sessionId !== options.resume) {
        sessionChange = { requested: options.resume, actual: sessionId };
      }
      options.hooks?.onSessionId?.(sessionId);
    }
    if (event.type === 'error') lastErrorMessage = event.message;
    // Plain text only: a record cut off or broken is no sentence of the agent's, and the failure's reason is then
    // looked for on stderr.
    if (event.type !== 'invalid-line' || event.code !== 'non-json-output') return;
    // The first lines and the latest one are kept: the oldest say what went wrong first, the latest is the sentence.
    if (stdoutNoise.length < MAX_NOISE_LINES) stdoutNoise.push(event.excerpt);
    else stdoutNoise[MAX_NOISE_LINES - 1] = event.excerpt;
  }

  function onFinish(finish: FinishEvent): void {
    if (finish.finishReason === 'incomplete') return;
    sawResult = true;
    if (finish.isError) {
      agentFailed = true;
      // The normalizer's sentence: the result's text, else the plain-text line the agent printed before it.
      const text = finish.failure?.message ?? finish.text;
      agentError = text === undefined || text.trim() === '' ? undefined : text.trim();
    }
    options.hooks?.onResult?.();
  }

  function handOut(out: readonly CanonicalEvent[]): void {
    for (const event of out) sessions.push(event);
    kept?.push(...out);
  }

  /** Hands out `events`, holding the latest `finish` until content of another session or the end. */
  function route(events: readonly CanonicalEvent[]): CanonicalEvent[] {
    const out: CanonicalEvent[] = [];
    for (const event of events) {
      observe(event);
      // Noise, errors and notices about the run after a finish stay before it; the next session's content does not.
      if (held !== undefined && isSessionContent(event)) {
        out.push(held);
        held = undefined;
      }
      if (event.type === 'finish') {
        held = event;
        onFinish(event);
      } else {
        out.push(event);
      }
    }
    handOut(out);
    return out;
  }

  return {
    feed: (chunk) => route(normalizer.feed(chunk)),
    end() {
      const events = route(normalizer.end());
      return { stream: { sawResult, agentFailed, agentError, stdoutNoise }, events };
    },
    close(error) {
      const out: CanonicalEvent[] = [];
      const located = sessionId === undefined ? {} : { sessionId };
      // The agent's own error event is enough when it carries the sentence; a bare one is followed by the run's.
      if (error !== null && !(error.code === 'agent-error' && lastErrorMessage === error.message))
        out.push({ type: 'error', message: error.message, code: error.code, ...located });
      const finish: FinishEvent = held ?? {
        type: 'finish',
        finishReason: 'incomplete',
        isError: false,
        pendingToolCallIds: [],
        ...located,
      };
      held = undefined;
      // The finish speaks for the run: a failed process is an error even when the stream looked fine.
      out.push(error === null ? finish : { ...finish, isError: true });
      handOut(out);
      // The run's finish is its last event: its session is over.
      sessions.end();
      return out;
    },
    get kept() {
      return kept ?? [];
    },
    stopKeeping() {
      kept = undefined;
    },
    get session() {
      return session;
    },
    get sessionId() {
      return sessionId;
    },
    get sessionChange() {
      return sessionChange;
    },
    stdoutNoise,
  };
}
