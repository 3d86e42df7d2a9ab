import type { CanonicalEvent, FinishEvent } from '../events.ts';
import { isSessionContent, opensNewSession, type SessionProgress } from './session-boundary.ts';

/**
 * Keeps the normalizer's promise of exactly one `finish` per session: it fills in `pendingToolCallIds`, and
 * synthesizes an `incomplete` finish for a session that ends (a new `system/init`, the end of input) without one.
 */
export interface SessionTracker {
  /** Passes `event` to `out`, preceded by a synthesized finish when it starts a new session. */
  track(event: CanonicalEvent, out: CanonicalEvent[]): void;
  /** At the end of input: appends the finish of a session left open. */
  end(out: CanonicalEvent[]): void;
}

interface OpenSession extends SessionProgress {
  sessionId: string | undefined;
  /** Started and not completed, in start order; a Set keeps duplicates out. */
  pending: Set<string>;
  /** Completed, so that a start arriving after its completion (or again) does not reopen the call. */
  completed: Set<string>;
}

function freshSession(): OpenSession {
  return {
    hasContent: false,
    finished: false,
    sessionId: undefined,
    pending: new Set(),
    completed: new Set(),
  };
}

/** A tracker for one stream. */
export function createSessionTracker(): SessionTracker {
  let session = freshSession();

  function synthesizeFinish(): FinishEvent {
    const finish: FinishEvent = {
      type: 'finish',
      finishReason: 'incomplete',
      isError: false,
      pendingToolCallIds: [...session.pending],
    };
    if (session.sessionId !== undefined) finish.sessionId = session.sessionId;
    return finish;
  }

  function observe(event: CanonicalEvent): CanonicalEvent {
    if (session.sessionId === undefined && event.sessionId !== undefined) session.sessionId = event.sessionId;
    switch (event.type) {
      case 'tool-call':
        if (!session.completed.has(event.toolCallId)) session.pending.add(event.toolCallId);
        return event;
      case 'tool-result':
        session.pending.delete(event.toolCallId);
        session.completed.add(event.toolCallId);
        return event;
      case 'finish':
        session.finished = true;
        // A dialect sees only its own records; the stream's open calls are known here.
        return { ...event, pendingToolCallIds: [...session.pending] };
      default:
        return event;
    }
  }

  return {
    track(event, out) {
      if (opensNewSession(event, session)) {
        if (!session.finished) out.push(synthesizeFinish());
        session = freshSession();
      }
      if (isSessionContent(event)) session.hasContent = true;
      out.push(observe(event));
    },
    end(out) {
      if (session.hasContent && !session.finished) out.push(synthesizeFinish());
      session = freshSession();
    },
  };
}
