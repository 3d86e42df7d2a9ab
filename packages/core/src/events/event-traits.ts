/**
 * What consumers decide by an event's type, said once per type: whether it is part of a session's content, whether it
 * is reasoning. The table covers every member of the union (a `Record<CanonicalEventType, ...>`), so a new
 * event type does not compile until its traits are stated, and every reader decides by them instead of by a list of
 * types of its own that a new type would silently miss.
 */

import type { CanonicalEventType } from './events.ts';

/** What an event's type says about every event of that type. */
export interface EventTraits {
  /**
   * Part of an agent session's content: the conversation and its end (`stream-start` to `finish`). Content after a
   * session's `finish` opens the next session; the rest (noise, errors, notices about the run) never opens one, so
   * trailing lines after a `result` stay with the session they follow.
   */
  readonly sessionContent: boolean;
  /** Part of the model's reasoning: left out whole by a consumer that shows no thinking. */
  readonly reasoning: boolean;
}

/** The traits of every canonical event type; a type left out fails to compile here. */
export const EVENT_TRAITS = Object.freeze<Record<CanonicalEventType, EventTraits>>({
  'stream-start': { sessionContent: true, reasoning: false },
  'user-message': { sessionContent: true, reasoning: false },
  'reasoning-delta': { sessionContent: true, reasoning: true },
  'reasoning-end': { sessionContent: true, reasoning: true },
  'text-delta': { sessionContent: true, reasoning: false },
  'tool-call': { sessionContent: true, reasoning: false },
  'tool-result': { sessionContent: true, reasoning: false },
  finish: { sessionContent: true, reasoning: false },
  error: { sessionContent: false, reasoning: false },
  status: { sessionContent: false, reasoning: false },
  interaction: { sessionContent: false, reasoning: false },
  // Reported about a turn, often after its text: never the opening of another session.
  usage: { sessionContent: false, reasoning: false },
  plan: { sessionContent: false, reasoning: false },
  unknown: { sessionContent: false, reasoning: false },
  'invalid-line': { sessionContent: false, reasoning: false },
});

/** The traits of a type from outside the union (an event of a newer core): neither content nor reasoning. */
const FOREIGN_TRAITS: EventTraits = { sessionContent: false, reasoning: false };

const TRAITS_BY_TYPE: ReadonlyMap<string, EventTraits> = new Map(Object.entries(EVENT_TRAITS));

// The type asked about last, and its traits (see `eventTraits`).
let lastType: string | undefined;
let lastTraits: EventTraits = FOREIGN_TRAITS;

/**
 * The traits of an event's type. A type from outside the union, which only an event of a newer version of the core
 * has, is neither session content nor reasoning: it is carried along and opens nothing.
 */
export function eventTraits(type: CanonicalEventType): EventTraits {
  // Events come in runs of one type (a reply's deltas), and each is asked about more than once: the last answer
  // saves a lookup by hash most of the time.
  if (type === lastType) return lastTraits;
  const traits = TRAITS_BY_TYPE.get(type) ?? FOREIGN_TRAITS;
  lastType = type;
  lastTraits = traits;
  return traits;
}
