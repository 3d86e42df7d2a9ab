/**
 * Where one session ends and the next begins, shared by the normalizer (which synthesizes missing `finish` events)
 * and the session reducer (which folds events into summaries), so both cut a log at the same places.
 */

import { type CanonicalEvent, eventTraits } from '../events/index.ts';

/**
 * Whether an event is part of an agent session's content, as its type's traits say (see `EVENT_TRAITS`): the
 * conversation and its `finish` are; `unknown`, `invalid-line`, `error`, `status` and `interaction` events are not,
 * so that trailing noise or a reconnect notice after a `result` does not open a session of its own.
 */
export function isSessionContent(event: CanonicalEvent): boolean {
  return eventTraits(event.type).sessionContent;
}

/** What {@link opensNewSession} needs to know about the current session. */
export interface SessionProgress {
  /** The session has had a content event (see {@link isSessionContent}). */
  hasContent: boolean;
  /** The session has had its `finish`. */
  finished: boolean;
}

/**
 * Whether `event` begins a new session after `current`: a `stream-start` once the current session has content (a
 * log may hold several sessions back to back), or any content event once the current session has finished.
 */
export function opensNewSession(event: CanonicalEvent, current: SessionProgress): boolean {
  if (!isSessionContent(event)) return false;
  if (current.finished) return true;
  return event.type === 'stream-start' && current.hasContent;
}
