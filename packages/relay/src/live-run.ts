/**
 * A run in flight: its stdout is appended to the log, then read into events, which wait in a bounded ring for the
 * clients that keep up. A client that falls behind the ring reads the log instead, so no client makes the relay hold
 * more than the ring, whatever its speed.
 */

import { createLogEventReader, type RunEvent, type RunFailure } from './log-events.ts';
import type { RunLogWriter } from './run-store.ts';

/** Bounds of a run's ring of recent events. */
export interface RingLimits {
  /** @defaultValue 4096 */
  maxEvents?: number;
  /** Bytes of event JSON. @defaultValue 8 MiB */
  maxBytes?: number;
}

/** Events kept whatever their size, so that a run's last events (its failure and finish) are always in the ring. */
const MIN_RING_EVENTS = 8;

/** A run in flight; see the module comment. */
export interface LiveRun {
  readonly runId: string;
  /** Position of the oldest event in the ring. */
  readonly ringStart: number;
  /** Events read so far. */
  readonly count: number;
  readonly ended: boolean;
  /** The events from position `seq`, at most `max`; `undefined` when `seq` has left the ring. */
  eventsFrom(seq: number, max: number): RunEvent[] | undefined;
  /** Calls `listener` once on the next change (events or the end); returns its removal. */
  onChange(listener: () => void): () => void;
  /** Appends stdout to the log, then reads it. Calls are queued in order. */
  append(chunk: Uint8Array): void;
  /** Ends the run once every append is written; resolves when the last events are in the ring. */
  end(failure: RunFailure | null): Promise<void>;
}

/** Creates a live run writing to `log`. */
export function createLiveRun(runId: string, log: RunLogWriter, limits: RingLimits = {}): LiveRun {
  const maxEvents = Math.max(limits.maxEvents ?? 4096, MIN_RING_EVENTS);
  const maxBytes = limits.maxBytes ?? 8 * 1024 * 1024;
  const reader = createLogEventReader();
  const ring: RunEvent[] = [];
  let ringStart = 0;
  let ringBytes = 0;
  let ended = false;
  let written: Promise<void> = Promise.resolve();
  let writeError: unknown;
  const listeners = new Set<() => void>();

  function notify(): void {
    const current = [...listeners];
    listeners.clear();
    for (const listener of current) listener();
  }

  function publish(events: readonly RunEvent[]): void {
    for (const event of events) {
      ring.push(event);
      ringBytes += event.json.length;
    }
    while (ring.length > MIN_RING_EVENTS && (ring.length > maxEvents || ringBytes > maxBytes)) {
      const dropped = ring.shift();
      ringBytes -= dropped?.json.length ?? 0;
      ringStart += 1;
    }
    if (events.length > 0) notify();
  }

  return {
    runId,
    get ringStart() {
      return ringStart;
    },
    get count() {
      return reader.count;
    },
    get ended() {
      return ended;
    },
    eventsFrom(seq, max) {
      if (seq < ringStart) return undefined;
      return ring.slice(seq - ringStart, seq - ringStart + max);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    append(chunk) {
      // The bytes reach the file before their events reach any client: an event a client has seen is always in
      // the log, so a resume after it, even after a restart, finds it.
      written = written.then(async () => {
        // After a failed write the log no longer holds what was read, so nothing more is read into events.
        if (writeError !== undefined) return;
        try {
          await log.append(chunk);
        } catch (error) {
          writeError = error;
          return;
        }
        publish(reader.feed(chunk));
      });
    },
    async end(failure) {
      await written;
      await log.close().catch(() => {});
      const lost: RunFailure | null =
        writeError === undefined
          ? null
          : {
              code: 'log-write-failed',
              message: `The run's log could not be written: ${String(writeError)}`,
            };
      publish(reader.end(lost ?? failure));
      ended = true;
      notify();
    },
  };
}
