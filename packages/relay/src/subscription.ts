/**
 * What one client receives: a run's events after a given id, in order, each once, until the run has ended. They come
 * from the first of three places that holds the event after the client's position: the live run's ring (the newest
 * events), the run's journal (every event made so far, which a resume seeks in; see `event-journal.ts`), or the log
 * read from the start (ids computed again, which a restart cannot change). A client that falls behind the ring goes
 * back to the journal or the log. So the relay holds at most the ring per run and one read buffer (and the event it
 * is reading) per client.
 */

import { compareEventIds, type EventId } from './event-ids.ts';
import { type JournalCursor, openJournalCursor } from './event-journal.ts';
import type { LiveRun } from './live-run.ts';
import {
  createLogEventReader,
  LARGE_EVENT_JSON,
  type LogEventReader,
  type RunEvent,
  type RunFailure,
} from './log-events.ts';
import type { RunJournalReader, RunLogReader, RunStore } from './run-store.ts';

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
 * Large events read back from a run's journal or log, by run and id, while anyone holds them. Each client that reads
 * back reads its own copy; clients that came after the run, or fell behind its ring, and do not read on would each
 * hold a copy of the event they are stuck on. Given the same event, they share its JSON and the bytes made of it for
 * each transport (`shared-bytes.ts`), as live clients share the ring's. Only large events are entered, and only while
 * one is alive, so the map holds what memory holds anyway.
 */
const readBack = new Map<string, WeakRef<RunEvent>>();
const forgetReadBack = new FinalizationRegistry<string>((key) => {
  if (readBack.get(key)?.deref() === undefined) readBack.delete(key);
});

/** `events`, each large one replaced by the same event read back by another client while it holds it. */
function sharedReadBack(runId: string, events: RunEvent[]): RunEvent[] {
  for (let index = 0; index < events.length; index++) {
    const event = events[index] as RunEvent;
    if (event.json.length < LARGE_EVENT_JSON) continue;
    const key = `${runId} ${event.idText}`;
    const held = readBack.get(key)?.deref();
    if (held !== undefined && held.seq === event.seq) events[index] = held;
    else {
      readBack.set(key, new WeakRef(event));
      forgetReadBack.register(event, key);
    }
  }
  return events;
}

/** Where a client is: the id of the last event it was given (or asked to start after), and the next event's seq. */
interface Position {
  after: EventId | undefined;
  /** Known once an event at or before `after` has been seen, or from the start. */
  next: number | undefined;
}

/** Whether `event` comes after the position, and so is the client's. */
function isAfter(event: RunEvent, position: Position): boolean {
  return position.after === undefined || compareEventIds(event.id, position.after) > 0;
}

/** Moves the position past the events given. */
function advance(position: Position, events: readonly RunEvent[]): void {
  const last = events.at(-1);
  if (last === undefined) return;
  position.next = last.seq + 1;
  if (position.after === undefined || compareEventIds(last.id, position.after) > 0) position.after = last.id;
}

/** The seq in the ring of the next event after the position, when the ring holds it (or it is yet to come). */
function ringSeqOf(live: LiveRun, position: Position): number | undefined {
  if (position.next !== undefined) return position.next >= live.ringStart ? position.next : undefined;
  // Only the id is known (a resume): the ring holds what follows it if it holds the id itself, or everything.
  const ring = live.eventsFrom(live.ringStart, Number.MAX_SAFE_INTEGER) ?? [];
  const after = position.after;
  const first = ring[0];
  if (
    live.ringStart > 0 &&
    (first === undefined || after === undefined || compareEventIds(first.id, after) > 0)
  )
    return undefined;
  const index = ring.findIndex((event) => after === undefined || compareEventIds(event.id, after) > 0);
  return live.ringStart + (index === -1 ? ring.length : index);
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

/** Follows the ring from `seq`; returns `true` once the run's last event is given, `false` if it fell behind. */
async function* followRing(
  live: LiveRun,
  seq: number,
  position: Position,
  signal: AbortSignal,
): AsyncGenerator<EventBatch, boolean, undefined> {
  let next = seq;
  while (!signal.aborted) {
    const events = live.eventsFrom(next, BATCH_EVENTS);
    if (events === undefined) return false;
    if (events.length > 0) {
      next += events.length;
      const batch = events.filter((event) => isAfter(event, position));
      position.next = next;
      advance(position, batch);
      const final = live.ended && next >= live.count;
      yield { events: batch, final };
      if (final) return true;
      continue;
    }
    if (live.ended) {
      yield { events: [], final: true };
      return true;
    }
    await changeOf(live, signal);
  }
  return true;
}

/**
 * Gives the journal's events after the position: `done` once a complete journal is read to its end (the run's last
 * event given), `more` at the end of a journal still being written, `none` when it gave nothing (it does not reach
 * past the position).
 */
async function* readJournal(
  runId: string,
  journal: RunJournalReader,
  position: Position,
  signal: AbortSignal,
): AsyncGenerator<EventBatch, 'done' | 'more' | 'none', undefined> {
  const cursor: JournalCursor | undefined = await openJournalCursor(journal, position.after);
  if (cursor === undefined) return 'none';
  let given = false;
  while (!signal.aborted) {
    const events = sharedReadBack(
      runId,
      (await cursor.next()).filter((event) => isAfter(event, position)),
    );
    advance(position, events);
    if (cursor.finished) {
      yield { events, final: true };
      return 'done';
    }
    if (events.length === 0) return given ? 'more' : 'none';
    given = true;
    yield { events, final: false };
  }
  return 'done';
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
  const position: Position = { after, next: after === undefined ? 0 : undefined };
  const live = source.live;
  let cursor: LogCursor | undefined;
  /** Once the journal did not help, the log is read; the journal is not tried again. */
  let journalTried = false;
  try {
    while (!signal.aborted) {
      const seq = live === undefined ? undefined : ringSeqOf(live, position);
      if (live !== undefined && seq !== undefined) {
        // Following the ring; the log is no longer needed.
        await cursor?.log.close();
        cursor = undefined;
        if (yield* followRing(live, seq, position, signal)) return;
        continue;
      }
      if (cursor === undefined && !journalTried) {
        const journal = await source.store.openJournal?.(source.runId);
        // A journal still being written is only worth it while the run is followed (it has a ring to go on with).
        if (journal !== undefined && (journal.complete || live !== undefined)) {
          let read: 'done' | 'more' | 'none';
          try {
            read = yield* readJournal(source.runId, journal, position, signal);
          } finally {
            await journal.close();
          }
          if (read === 'done') return;
          if (read === 'more') continue;
        } else await journal?.close();
        journalTried = true;
      }
      cursor ??= await openCursor(source);
      const read = await cursor.log.read(cursor.buffer, cursor.position);
      if (read > 0) {
        cursor.position += read;
        const events = cursor.reader.feed(cursor.buffer.subarray(0, read));
        const batch = sharedReadBack(
          source.runId,
          events.filter((event) => isAfter(event, position)),
        );
        position.next = cursor.reader.count;
        advance(position, batch);
        if (batch.length > 0) yield { events: batch, final: false };
        continue;
      }
      // At the end of what is written. A run in flight goes on in its ring (its next events are there, since the
      // ring always holds the newest); an ended run ends here.
      if (live !== undefined) {
        position.next = cursor.reader.count;
        if (position.next < live.ringStart) await changeOf(live, signal);
        continue;
      }
      yield {
        events: sharedReadBack(
          source.runId,
          cursor.reader.end(source.failure()).filter((event) => isAfter(event, position)),
        ),
        final: true,
      };
      return;
    }
  } finally {
    await cursor?.log.close();
  }
}
