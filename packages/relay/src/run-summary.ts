/**
 * A run's record with the summary of its session, read from its log as far as it is written, a piece at a time
 * through the session reducer: what a summary holds is bounded (the text as its head and tail past 131,072 UTF-16
 * units, as `cursor-stream summary` prints it), whatever the length of the run.
 */

import { createSessionReducer, type SessionSummary } from '@cursor-stream/core/normalize';
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
  session: SessionSummary | null;
}

/** Summarizes a run; `inFlight` leaves the log open-ended (no synthesized end). */
export async function summarizeRun(
  store: RunStore,
  record: RunRecord,
  inFlight: boolean,
): Promise<RunSummary> {
  const reader = createLogEventReader();
  const reducer = createSessionReducer({ textDigest: createNodeTextDigest });
  const log = await store.openLog(record.runId);
  try {
    const buffer = new Uint8Array(READ_BYTES);
    let position = 0;
    for (;;) {
      const read = await log.read(buffer, position);
      if (read === 0) break;
      position += read;
      for (const { event } of reader.feed(buffer.subarray(0, read))) reducer.push(event);
    }
  } finally {
    await log.close();
  }
  if (!inFlight) for (const { event } of reader.end(record.error)) reducer.push(event);
  const session = reducer.sessions().at(-1);
  // The reducer learns the dialect only when told it up front; the reader knows it once the log has shown it.
  return {
    ...record,
    session:
      session === undefined ? null : { ...session, dialect: session.dialect ?? reader.dialect ?? null },
  };
}
