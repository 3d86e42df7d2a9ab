/**
 * A run in flight: its stdout is appended to the log, then read into events, which wait in a bounded ring for the
 * clients that keep up. A client that falls behind the ring reads the journal or the log instead, so no client makes
 * the relay hold more than the ring, whatever its speed. The ring is bounded in bytes whatever its events' sizes: it
 * holds at most its byte bound plus the newest event (one record's event may alone pass the bound), and, once the run
 * has ended, its last events besides. Stdout waiting to be written is bounded too: past the bound, the agent's output
 * is not read until the log has caught up (see {@link LiveRun.append}).
 */

import { createLogEventReader, keptEvent, type RunEvent, type RunFailure } from './log-events.ts';
import type { RunLogWriter } from './run-store.ts';

/** Bounds of a run's ring of recent events; the newest event is kept whatever its size. */
export interface RingLimits {
  /** @defaultValue 4096 */
  maxEvents?: number;
  /** Bytes of event JSON (UTF-16 units). @defaultValue 8 MiB */
  maxBytes?: number;
}

/** Default of the bytes of stdout waiting to be written before reading the agent's output is held back: 4 MiB. */
export const DEFAULT_MAX_PENDING_BYTES = 4 * 1024 * 1024;

/**
 * A journal's hold on a run's ring (see {@link LiveRun.holdForJournal}): the events from the position it has written
 * up to stay in the ring until it has written them.
 */
export interface JournalHold {
  /** Everything before `seq` is written. */
  advance(seq: number): void;
  /** The journal is done (complete or abandoned): the ring holds nothing more for it. */
  release(): void;
}

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
  /**
   * Appends stdout to the log, then reads it. Calls are queued in order. While the queue holds more than its bound
   * of bytes, it returns a promise that settles once the queue has drained to half of it: the caller (the agent's
   * stdout, through `runAgent`'s `onStdout`) reads no more output until then.
   */
  append(chunk: Uint8Array): Promise<void> | undefined;
  /** Bytes of stdout appended and not yet written to the log (at most the bound and the chunk that crossed it). */
  readonly pendingBytes: number;
  /** Ends the run once every append is written; resolves when the last events are in the ring. */
  end(failure: RunFailure | null): Promise<void>;
  /**
   * Keeps the events the journal has not written yet in the ring, from the ring's start now, until the journal has
   * written them or lets go. Output is read into more events only while those waiting for the journal are within
   * the ring's bounds, so a journal is never outrun (its run's records of any size are journaled), and waiting for
   * it holds back the agent's output as a slow log does.
   */
  holdForJournal(): JournalHold;
}

/**
 * Creates a live run writing to `log`.
 *
 * @param maxPendingBytes - Bytes of stdout waiting to be written past which reading the output is held back.
 */
export function createLiveRun(
  runId: string,
  log: RunLogWriter,
  limits: RingLimits = {},
  maxPendingBytes: number = DEFAULT_MAX_PENDING_BYTES,
): LiveRun {
  const maxEvents = Math.max(limits.maxEvents ?? 4096, 1);
  const maxBytes = limits.maxBytes ?? 8 * 1024 * 1024;
  let pendingBytes = 0;
  // Callers told to wait until the queue has drained.
  const drained: (() => void)[] = [];
  const reader = createLogEventReader();
  const ring: RunEvent[] = [];
  let ringStart = 0;
  let ringBytes = 0;
  /** The seq of the run's first last event (those its end gave), once it has ended. */
  let endSeq = Number.POSITIVE_INFINITY;
  let ended = false;
  let written: Promise<void> = Promise.resolve();
  // Why the log stopped being written or read; from then on nothing more is read into events.
  let logFailure: RunFailure | undefined;
  const listeners = new Set<() => void>();
  /** The seq of the first event the journal has not written, while a journal holds the ring. */
  let journalNext: number | undefined;
  /** Called when the journal moves on or lets go. */
  let journalMoved: (() => void)[] = [];

  function notify(): void {
    const current = [...listeners];
    listeners.clear();
    for (const listener of current) listener();
  }

  function publish(events: readonly RunEvent[]): void {
    for (const event of events) {
      ring.push(keptEvent(event));
      ringBytes += event.json.length;
    }
    // The newest event stays, so a client following the ring always has the next event or waits for it. The run's
    // last events stay too: a client that read the log to its end goes on in the ring, and only the ring has the
    // events of how the run ended.
    while (
      ring.length > 1 &&
      ringStart < endSeq &&
      (journalNext === undefined || ringStart < journalNext) &&
      (ring.length > maxEvents || ringBytes > maxBytes)
    ) {
      const dropped = ring.shift();
      ringBytes -= dropped?.json.length ?? 0;
      ringStart += 1;
    }
    if (events.length > 0) notify();
  }

  /** Whether the events the journal has yet to write pass the ring's bounds: reading waits for it then. */
  function journalBehind(): boolean {
    if (journalNext === undefined) return false;
    let events = 0;
    let bytes = 0;
    for (let index = Math.max(journalNext - ringStart, 0); index < ring.length; index++) {
      events += 1;
      bytes += (ring[index] as RunEvent).json.length;
    }
    return events > maxEvents || bytes > maxBytes;
  }

  function journalMoves(): Promise<void> {
    return new Promise((resolve) => journalMoved.push(resolve));
  }

  function tellJournalMoved(): void {
    const waiting = journalMoved;
    journalMoved = [];
    for (const resolve of waiting) resolve();
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
    get pendingBytes() {
      return pendingBytes;
    },
    append(chunk) {
      pendingBytes += chunk.length;
      // The bytes reach the file before their events reach any client: an event a client has seen is always in
      // the log, so a resume after it, even after a restart, finds it.
      written = written.then(async () => {
        try {
          // After a failed write the log no longer holds what was read, so nothing more is read into events.
          if (logFailure !== undefined) return;
          try {
            await log.append(chunk);
          } catch (error) {
            logFailure = {
              code: 'log-write-failed',
              message: `The run's log could not be written: ${String(error)}`,
            };
            return;
          }
          try {
            publish(reader.feed(chunk));
            while (journalBehind()) await journalMoves();
          } catch (error) {
            logFailure = {
              code: 'log-read-failed',
              message: `The run's log could not be read into events: ${String(error)}`,
            };
          }
        } finally {
          pendingBytes -= chunk.length;
          if (pendingBytes <= maxPendingBytes / 2) {
            for (const resolve of drained.splice(0)) resolve();
          }
        }
      });
      if (pendingBytes <= maxPendingBytes) return undefined;
      return new Promise<void>((resolve) => drained.push(resolve));
    },
    async end(failure) {
      await written;
      await log.close().catch(() => {});
      try {
        endSeq = reader.count;
        publish(reader.end(logFailure ?? failure));
      } catch {
        // The log could not be read to its end; the run still ends, and its record says how.
      }
      ended = true;
      notify();
    },
    holdForJournal() {
      journalNext = ringStart;
      let held = true;
      return {
        advance(seq) {
          if (!held) return;
          journalNext = seq;
          tellJournalMoved();
        },
        release() {
          if (!held) return;
          held = false;
          journalNext = undefined;
          // What the journal held may go now, as the next events come.
          tellJournalMoved();
        },
      };
    },
  };
}
