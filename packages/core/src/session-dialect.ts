/**
 * Which dialect read each session: canonical events name none, and one stream may hold sessions of several (the
 * CLI's records and `@cursor/sdk` messages in one log), so the normalizer marks each session's `finish`, by identity,
 * with the dialect that read the session, and the session reducer reads the mark. A copy of the event (one sent to
 * another thread) has none, unless whoever copies it marks the copy too, as redaction does.
 */

import type { FinishEvent } from './events/index.ts';

const sessionDialects = new WeakMap<FinishEvent, string>();

/** Marks `finish` as ending a session that the dialect named `dialect` read. */
export function markSessionDialect(finish: FinishEvent, dialect: string): void {
  sessionDialects.set(finish, dialect);
}

/** The dialect the normalizer marked `finish` with; `undefined` for a finish it did not mark. */
export function sessionDialectOf(finish: FinishEvent): string | undefined {
  return sessionDialects.get(finish);
}
