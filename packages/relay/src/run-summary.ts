/**
 * A run's record with the summary of its session, read from its log as far as it is written, a piece at a time
 * through the bounded sessions `cursor-stream summary` uses: what a summary holds is bounded (the text as its head and
 * tail past 131,072 UTF-16 units, the first 1,000 tool calls listed and the others counted, no session but the last
 * kept), whatever the length of the run.
 */

import {
  type BoundedSession,
  createBoundedSessions,
  type SessionSummary,
} from '@cursor-stream/core/sessions';
import { createNodeTextDigest } from '@cursor-stream/node/text-digest';
import { createLogEventReader } from './log-events.ts';
import type { RunRecord, RunStore } from './run-store.ts';

const READ_BYTES = 64 * 1024;

/** What `GET /api/runs/:runId` answers. */
export interface RunSummary extends RunRecord {
  /**
   * The run's (last) session as the session reducer sees it, `null` before the agent said anything. Its `text` is
   * whole up to 131,072 UTF-16 units and its first and last 65,536 past that, with `textLength` and `textOmitted`
   * saying what was left out.
   */
  session: RunSession | null;
}

/** The run's (last) session, as `summary --json` gives one: its tool calls past the first 1,000 only counted. */
export interface RunSession extends SessionSummary {
  /** Tool calls past the 1,000 listed, counted by their starts; their events stay in `counts`. */
  toolCallsOmitted: number;
}

/** Summarizes a run; `inFlight` leaves the log open-ended (no synthesized end). */
export async function summarizeRun(
  store: RunStore,
  record: RunRecord,
  inFlight: boolean,
): Promise<RunSummary> {
  const reader = createLogEventReader();
  let last: BoundedSession | undefined;
  const sessions = createBoundedSessions({ textDigest: createNodeTextDigest }, (session) => {
    last = session;
  });
  const log = await store.openLog(record.runId);
  try {
    const buffer = new Uint8Array(READ_BYTES);
    let position = 0;
    for (;;) {
      const read = await log.read(buffer, position);
      if (read === 0) break;
      position += read;
      for (const { event } of reader.feed(buffer.subarray(0, read))) sessions.push(event);
    }
  } finally {
    await log.close();
  }
  if (!inFlight) for (const { event } of reader.end(record.error)) sessions.push(event);
  // A run in flight has no synthesized end: its open session is summarized as far as it goes.
  sessions.end();
  if (last === undefined) return { ...record, session: null };
  const { summary, toolCallsOmitted } = last;
  // The reducer learns the dialect only when told it up front; the reader knows it once the log has shown it.
  return {
    ...record,
    session: { ...summary, dialect: summary.dialect ?? reader.dialect ?? null, toolCallsOmitted },
  };
}
