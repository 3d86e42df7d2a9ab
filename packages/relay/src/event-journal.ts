/**
 * A run's journal: every event the relay served for it, one line each (`SEQ ID JSON`), in order, written while the run
 * is in flight. A resume after an id seeks in it (a binary search on the ids, which increase along the lines) instead
 * of reading the log from the start: a record's events depend on everything before it (the text already said, the
 * calls still open, the line count), so the log cannot be read from the middle, but its events, once made, can be
 * kept. The first line after any id is the first event a read from the start gives after it, whether or not the id
 * names an event; the lines are the events themselves, so a resume from the journal sends the same bytes.
 */

import { compareEventIds, type EventId, parseEventId } from './event-ids.ts';
import type { JournalHold, LiveRun } from './live-run.ts';
import { LARGE_EVENT_JSON, type RunEvent } from './log-events.ts';
import type { RunJournalReader, RunJournalWriter } from './run-store.ts';

const SPACE = 0x20;
const LINE_FEED = 0x0a;
/** Bytes read at once. */
const READ_BYTES = 64 * 1024;
/** Events given at once, at most. */
const BATCH_EVENTS = 256;
/** Bytes of lines read into one batch, besides the line that crosses it: a batch of large events stays small. */
const BATCH_BYTES = 1024 * 1024;

const NEW_LINE = Buffer.from('\n');

/** Bytes of journal lines written at once, besides a larger line on its own. */
const WRITE_BYTES = 1024 * 1024;

/** The journal line of an event. */
export function journalLine(event: RunEvent): Buffer {
  return Buffer.from(`${event.seq} ${event.idText} ${event.json}\n`);
}

/** An event read back from its journal line; its `event` is parsed from the JSON when it is first read. */
function eventOfLine(line: Buffer): RunEvent | undefined {
  const first = line.indexOf(SPACE);
  const second = first === -1 ? -1 : line.indexOf(SPACE, first + 1);
  if (second === -1) return undefined;
  const seq = Number(line.toString('latin1', 0, first));
  const idText = line.toString('latin1', first + 1, second);
  const id = parseEventId(idText);
  if (!Number.isSafeInteger(seq) || id === undefined) return undefined;
  const json = line.toString('utf8', second + 1, line.length);
  let event: RunEvent['event'] | undefined;
  return {
    seq,
    id,
    idText,
    json,
    get event() {
      event ??= JSON.parse(json) as RunEvent['event'];
      return event;
    },
  };
}

/** A high surrogate, which a slice must not end with (its pair would be cut in two). */
function endsInHighSurrogate(text: string, end: number): boolean {
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff;
}

/** The UTF-8 bytes of `text`, a slice of about `units` UTF-16 units at a time, no surrogate pair cut. */
function* utf8Slices(text: string, units: number): Generator<Buffer> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + units, text.length);
    if (end < text.length && endsInHighSurrogate(text, end)) end -= 1;
    yield Buffer.from(text.slice(start, end));
    start = end;
  }
}

/**
 * Appends the lines of `events`, a megabyte at a time; a large event's JSON a megabyte at a time too, so that writing
 * it never holds its bytes whole.
 */
async function appendLines(writer: RunJournalWriter, events: readonly RunEvent[]): Promise<void> {
  let text = '';
  const flush = async () => {
    if (text === '') return;
    const bytes = Buffer.from(text);
    text = '';
    await writer.append([bytes]);
  };
  for (const event of events) {
    if (event.json.length < LARGE_EVENT_JSON) {
      text += `${event.seq} ${event.idText} ${event.json}\n`;
      if (text.length >= WRITE_BYTES) await flush();
      continue;
    }
    await flush();
    // A line is read back only once its line feed is written, so it may be written in parts.
    await writer.append([Buffer.from(`${event.seq} ${event.idText} `)]);
    for (const slice of utf8Slices(event.json, WRITE_BYTES)) await writer.append([slice]);
    await writer.append([NEW_LINE]);
  }
  await flush();
}

/**
 * Writes the journal of a run in flight from its ring, until the run has ended (the journal is then complete). The
 * journal's `hold` (taken when the run started, see `LiveRun.holdForJournal`) keeps what it has not written in the
 * ring; it lets go when the journal is done. If the ring moved past what is written all the same (the hold was taken
 * late), or a write fails, the journal is abandoned: resumes read the log, as they would without one.
 */
export async function writeJournal(
  live: LiveRun,
  writer: RunJournalWriter,
  hold: JournalHold,
): Promise<void> {
  let next = 0;
  try {
    for (;;) {
      const events = live.eventsFrom(next, BATCH_EVENTS);
      if (events === undefined) {
        await writer.abandon();
        return;
      }
      if (events.length > 0) {
        await appendLines(writer, events);
        next += events.length;
        hold.advance(next);
        continue;
      }
      if (live.ended) {
        await writer.complete();
        return;
      }
      await new Promise<void>((resolve) => live.onChange(resolve));
    }
  } catch (error) {
    await writer.abandon().catch(() => {});
    throw error;
  } finally {
    hold.release();
  }
}

/** Reads a journal from a byte position, a line at a time. */
export interface JournalCursor {
  /** The next events, up to the journal's current end (none there); a line cut off by the end waits for more. */
  next(): Promise<RunEvent[]>;
  /** Whether the journal holds every event of the run, and all of it has been read. */
  readonly finished: boolean;
}

/** The byte position of the first line at or after `from` (`size` when none starts before it). */
async function lineStartFrom(journal: RunJournalReader, from: number, size: number): Promise<number> {
  if (from === 0) return 0;
  const buffer = new Uint8Array(READ_BYTES);
  for (let position = from - 1; position < size; ) {
    const read = await journal.read(buffer, position);
    if (read === 0) break;
    const at = buffer.subarray(0, read).indexOf(LINE_FEED);
    if (at !== -1) return Math.min(position + at + 1, size);
    position += read;
  }
  return size;
}

/** The id of the line starting at `start`; `undefined` at the end or for a line that is no journal line. */
async function idAt(journal: RunJournalReader, start: number, size: number): Promise<EventId | undefined> {
  if (start >= size) return undefined;
  // `SEQ ID ` is at most 17 + 1 + 26 + 1 bytes.
  const head = Buffer.alloc(64);
  const read = await journal.read(head, start);
  const first = head.subarray(0, read).indexOf(SPACE);
  const second = first === -1 ? -1 : head.subarray(0, read).indexOf(SPACE, first + 1);
  return second === -1 ? undefined : parseEventId(head.toString('latin1', first + 1, second));
}

/**
 * The byte position of the first line whose id is after `after` (the journal's size when there is none yet): a
 * binary search on positions, each step reading to the next line start and that line's id.
 */
async function positionAfter(journal: RunJournalReader, after: EventId, size: number): Promise<number> {
  // The smallest `x` such that the first line at or after `x` is after `after` (or there is none).
  let low = 0;
  let high = size;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const start = await lineStartFrom(journal, middle, size);
    const id = await idAt(journal, start, size);
    if (id === undefined || compareEventIds(id, after) > 0) high = middle;
    else low = middle + 1;
  }
  return lineStartFrom(journal, low, size);
}

/**
 * Opens a cursor on `journal` at the first event after `after` (at its start without it). `undefined` when the
 * journal does not reach past `after` yet (a run in flight whose journal is behind the client).
 */
export async function openJournalCursor(
  journal: RunJournalReader,
  after: EventId | undefined,
): Promise<JournalCursor | undefined> {
  const size = await journal.size();
  let position = after === undefined ? 0 : await positionAfter(journal, after, size);
  if (position >= size && !journal.complete) return undefined;
  const buffer = new Uint8Array(READ_BYTES);
  /** The start of a line cut off by the end of what was read, kept until its end is read. */
  let held: Buffer[] = [];
  let finished = false;
  /** A complete journal does not grow: its end is known. */
  const atEnd = () => journal.complete && position >= size && held.length === 0;
  return {
    async next() {
      const events: RunEvent[] = [];
      let bytes = 0;
      while (events.length < BATCH_EVENTS && (bytes < BATCH_BYTES || events.length === 0) && !atEnd()) {
        const read = await journal.read(buffer, position);
        if (read === 0) {
          // A complete journal ends with a whole line; a partial one may be cut, and grows.
          finished = journal.complete;
          break;
        }
        position += read;
        bytes += read;
        let start = 0;
        const chunk = buffer.subarray(0, read);
        for (let end = chunk.indexOf(LINE_FEED); end !== -1; end = chunk.indexOf(LINE_FEED, start)) {
          const line = Buffer.concat([...held, chunk.subarray(start, end)]);
          held = [];
          start = end + 1;
          const event = eventOfLine(line);
          if (event !== undefined && (after === undefined || compareEventIds(event.id, after) > 0))
            events.push(event);
        }
        if (start < read) held.push(Buffer.from(chunk.subarray(start)));
      }
      if (atEnd()) finished = true;
      return events;
    },
    get finished() {
      return finished;
    },
  };
}
