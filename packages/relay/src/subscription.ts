/**
 * What one client receives: a run's events after a given id, in order, each once, until the run has ended. A client
 * reads the log from the start (computing ids again, which a restart cannot change) until it reaches the live run's
 * ring, then follows the ring; if it falls behind the ring, it goes back to the log. So the relay holds at most the
 * ring per run and one read buffer per client.
 */

import { compareEventIds, type EventId } from './event-ids.ts';
import type { LiveRun } from './live-run.ts';
import { createLogEventReader, type LogEventReader, type RunEvent, type RunFailure } from './log-events.ts';
import type { RunLogReader, RunStore } from './run-store.ts';

/** Events handed to a client at once. */
const BATCH_EVENTS = 256;
/** Bytes of the log read at once. */
const READ_BYTES = 64 * 1024;

/** A batch of events; `final` when nothing comes after it. */
export interface EventBatch {
  events: RunEvent[];
  final: boolean;
}

/** Where a client's events come from. */
export interface SubscriptionSource {
  runId: string;
  store: RunStore;
  /** The run, when it was in flight as the client came; followed to its end even once it has ended. */
  live: LiveRun | undefined;
  /** The failure of an ended run, for the end of its events (read when the log is read to its end). */
  failure: () => RunFailure | null;
}

/** A log read from the start, a chunk at a time. */
interface LogCursor {
  reader: LogEventReader;
  log: RunLogReader;
  position: number;
  buffer: Uint8Array;
}

async function openCursor(source: SubscriptionSource): Promise<LogCursor> {
  return {
    reader: createLogEventReader(),
    log: await source.store.openLog(source.runId),
    position: 0,
    buffer: new Uint8Array(READ_BYTES),
  };
}

/**
 * The events of a run after `after` (all of them without it), in batches. Stops when the run has ended and every
 * event is given, or when `signal` aborts.
 */
export async function* subscribe(
  source: SubscriptionSource,
  after: EventId | undefined,
  signal: AbortSignal,
): AsyncGenerator<EventBatch, void, undefined> {
  let next = 0;
  let cursor: LogCursor | undefined;
  const wanted = (event: RunEvent) =>
    event.seq >= next && (after === undefined || compareEventIds(event.id, after) > 0);
  const live = source.live;
  try {
    while (!signal.aborted) {
      if (live !== undefined && next >= live.ringStart) {
        // Following the ring; the log is no longer needed.
        await cursor?.log.close();
        cursor = undefined;
        const events = live.eventsFrom(next, BATCH_EVENTS) ?? [];
        if (events.length > 0) {
          const batch = events.filter(wanted);
          next += events.length;
          const final = live.ended && next >= live.count;
          yield { events: batch, final };
          if (final) return;
          continue;
        }
        if (live.ended) {
          yield { events: [], final: true };
          return;
        }
        await changeOf(live, signal);
        continue;
      }
      cursor ??= await openCursor(source);
      const read = await cursor.log.read(cursor.buffer, cursor.position);
      if (read > 0) {
        cursor.position += read;
        const events = cursor.reader.feed(cursor.buffer.subarray(0, read));
        const batch = events.filter(wanted);
        next = Math.max(next, cursor.reader.count);
        if (batch.length > 0) yield { events: batch, final: false };
        continue;
      }
      // At the end of what is written. A run in flight goes on in its ring (its next events are there, since the
      // ring always holds the newest); an ended run ends here.
      if (live !== undefined) {
        next = cursor.reader.count;
        if (next < live.ringStart) await changeOf(live, signal);
        continue;
      }
      yield { events: cursor.reader.end(source.failure()).filter(wanted), final: true };
      return;
    }
  } finally {
    await cursor?.log.close();
  }
}

function changeOf(live: LiveRun, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const stop = live.onChange(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
    const onAbort = () => {
      stop();
      resolve();
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
