/**
 * One run on a worker thread: read a log file from the start of a range, through the normalizer, until a cut that
 * checks out or the end of the file.
 *
 * A cut is accepted only when the worker sees, at that exact byte, the state one thread would be in, so that the
 * next range read from there on its own gives what one thread gives:
 *
 * - the tokenizer holds nothing: the last record it gave ends exactly at the cut (a raw line feed inside a string
 *   keeps a record open across lines, and a line that looks like a session start may be such a string's rest);
 * - the line at the cut is one record, a `system/init` whose first event is a `stream-start` opening a new session:
 *   the session tracker has seen content before, so it closes its session there (synthesizing the cut session's
 *   `finish`) and starts afresh, as the next range's fresh tracker does;
 * - the stream is locked on the dialect the next range is read with, and no record so far (the cut's included) was
 *   read by another dialect where either keeps state across sessions, which would cross the cut.
 *
 * Tool calls started in one range and completed in another are the one state that crosses a cut; the main thread
 * checks those (see `range-scheduler.ts`). A cut that does not check out is read through, and the run goes on to the
 * next one. A run whose state is exactly one thread's (it started at the file's start, or caught up from such a
 * state) keeps its normalizer at the cut it stops at ("parks" it): a later range that a tool call crossed into is read
 * again from there, silently up to that range.
 *
 * Events are delivered at the same points as on one thread (the end of each 64 KiB chunk, counted from the start of
 * the file), so a consumer that reads the dialect as sessions end sees the same dialect for each.
 */

import { readSync } from 'node:fs';
import {
  BUILT_IN_DIALECTS,
  type CanonicalEvent,
  createNormalizer,
  type Dialect,
  isSessionContent,
  type Normalizer,
  type NormalizerOptions,
  type SourceLocation,
} from '@cursor-stream/core/normalize';
import type { NdjsonRecord } from '@cursor-stream/ndjson';
import { READ_CHUNK_BYTES } from '../logs/index.ts';
import { type Shift, shiftEvent, shiftForeign, shiftLocation, shiftRecord } from './locations.ts';
import { type RangeConsumer, readingStep } from './range-consumer.ts';
import type { RunBatch, RunSummary } from './range-protocol.ts';

/** A batch is sent once its items hold about this much, or once it names this many tool calls. */
const BATCH_BYTES = 256 * 1024;
const BATCH_TOUCHES = 4096;

/** Pending tool calls reported per run; past it the run reports that it cannot tell. */
const MAX_PENDING_REPORTED = 10_000;

/**
 * One thread reads a file in chunks of this size from its start and delivers events after each: runs read and
 * deliver at the same offsets. A cut's session start is checked only if its line ends within its chunk.
 */
const CHUNK = READ_CHUNK_BYTES;

/** The file a worker reads, and its ranges. */
export interface RangeFile {
  readonly fd: number;
  /** Where each range starts, then the file's size. */
  readonly bounds: readonly number[];
  /** The dialect every accepted cut must find the stream locked on. */
  readonly dialect: string;
}

/** What a run produces as it goes, and what it needs from its thread. */
export interface RunIo {
  /** Sends a batch; resolves when the run may go on (the main thread limits batches in flight). */
  send(batch: RunBatch): Promise<void>;
  cancelled(): boolean;
}

type RecordTarget = (record: NdjsonRecord, dialect: Dialect | undefined) => void;

/** The record and events of an accepted cut's session start, held back for the range after it. */
interface Held {
  readonly records: [NdjsonRecord, Dialect | undefined][];
  readonly events: readonly CanonicalEvent[];
  readonly chunk: number;
}

/** Where the tokenizer is, as its records show: the end of the last one, and where the next ones go. */
interface RecordCursor {
  /** End of the last record the tokenizer gave, in the file. */
  lastRecordEnd: number;
  target: RecordTarget;
  /**
   * Whether a record was read by a dialect other than the file's, where either keeps state across sessions (a log
   * that mixes `@cursor/sdk` rows or ACP traffic with the CLI's): that state (ended runs, open calls) then crosses
   * every cut, which no fresh run has. The CLI's dialects forget theirs at the session start every cut is.
   */
  mixed: boolean;
}

/** The reading state of a normalizer over the file: what a parked run keeps. */
export interface ReadState {
  readonly normalizer: Normalizer;
  /** Positions read by the normalizer, moved to the file. */
  readonly shift: Shift;
  readonly cursor: RecordCursor;
  /** The next byte to feed. */
  pos: number;
  /** The next cut to check, as an index into the bounds. */
  next: number;
  /** Whether a session-content event has been read: the tracker then cuts a session at every `stream-start`. */
  sawContent: boolean;
  held: Held | undefined;
}

/** What one run delivers to its consumer and counts. */
interface Output {
  readonly consumer: RangeConsumer;
  /** Catching up to a range: nothing is followed or sent. */
  readonly silent: boolean;
  /** Where the run's own bytes start: records and problems before it belong to the range before. */
  readonly from: number;
  collected: CanonicalEvent[];
  dialect: string | undefined;
  /** Tool calls started in this run and not completed: the run's own view of its dialect's started calls. */
  readonly started: Set<string>;
  /**
   * Whether the run's events may depend on calls started before it, so that the ids it touches without a start of
   * its own are named: not when it starts at a cut, a session start, of a dialect whose calls end with their session.
   */
  readonly followsTouches: boolean;
  blind: boolean;
  touches: string[];
  events: number;
  invalidLines: number;
  read: number;
  items: unknown[];
  count: number;
  bytes: number;
}

/** How to start reading at a range. */
export interface RunStart {
  readonly range: number;
  readonly firstLine: number;
  /** `auto` or a dialect name. */
  readonly dialect: string;
  readonly maxRecordBytes?: number | undefined;
  /**
   * Which records the run's consumers are given. A consumer given none, or only the unproven ones, lets the
   * normalizer take the lines of hot records without a value, as one thread does for the same command.
   */
  readonly onRecordFor: NonNullable<NormalizerOptions['onRecordFor']>;
  /** Whether long strings are left undecoded until read: off for consumers that read every string. */
  readonly lazyStrings: boolean;
}

const ignoreRecord: RecordTarget = () => undefined;

const LINE_FEED = 0x0a;

/** A fresh normalizer at the start of a range. */
export function startReading(file: RangeFile, start: RunStart): ReadState {
  const from = file.bounds[start.range] ?? 0;
  const cursor: RecordCursor = { lastRecordEnd: -1, target: ignoreRecord, mixed: false };
  const fileForgets = callsEndAtCut(file);
  const normalizer = createNormalizer({
    dialect: start.dialect,
    ...(start.maxRecordBytes === undefined ? {} : { maxRecordBytes: start.maxRecordBytes }),
    onRecordFor: start.onRecordFor,
    lazyStrings: start.lazyStrings,
    onRecord(record, dialect) {
      cursor.lastRecordEnd = from + record.offset + record.length;
      if (
        dialect !== undefined &&
        dialect.name !== file.dialect &&
        !(fileForgets && dialect.callsEndWithSession)
      )
        cursor.mixed = true;
      cursor.target(record, dialect);
    },
  });
  return {
    normalizer,
    shift: { lines: start.firstLine - 1, bytes: from },
    cursor,
    pos: from,
    next: start.range + 1,
    sawContent: false,
    held: undefined,
  };
}

function createOutput(consumer: RangeConsumer, from: number, silent = false, followsTouches = true): Output {
  return {
    consumer,
    silent,
    from,
    collected: [],
    dialect: undefined,
    started: new Set(),
    followsTouches,
    blind: false,
    touches: [],
    events: 0,
    invalidLines: 0,
    read: 0,
    items: [],
    count: 0,
    bytes: 0,
  };
}

/** Follows the dialect's record of started calls through the events that change it. */
function followCalls(out: Output, event: CanonicalEvent): void {
  if (event.type === 'tool-call' || event.type === 'tool-result') {
    if (out.followsTouches && !out.started.has(event.toolCallId)) out.touches.push(event.toolCallId);
    if (event.type === 'tool-call') out.started.add(event.toolCallId);
    else out.started.delete(event.toolCallId);
  } else if (event.type === 'invalid-line' && event.code === 'too-deep') {
    // The dialect read the record, and may have started or completed a call, before its events were replaced.
    out.blind = true;
  }
}

/** Takes events the normalizer gave into the run: positions moved, counted, followed. */
function absorb(state: ReadState, out: Output, events: readonly CanonicalEvent[]): void {
  for (const event of events) {
    shiftEvent(event, state.shift);
    if (isSessionContent(event)) state.sawContent = true;
    out.events += 1;
    if (event.type === 'invalid-line') out.invalidLines += 1;
    followCalls(out, event);
    out.collected.push(event);
  }
}

function recordsTo(state: ReadState, out: Output, chunk: number): RecordTarget {
  const onRecord = out.consumer.onRecord;
  if (onRecord === undefined) return ignoreRecord;
  const step = readingStep(chunk, false);
  return (record, dialect) => onRecord(shiftRecord(record, state.shift), dialect, step);
}

/** Delivers the events read so far, after telling the dialect if it changed, as one thread does after each read. */
function deliver(state: ReadState, out: Output, chunk: number): void {
  const name = state.normalizer.dialect;
  if (name !== undefined && name !== out.dialect) {
    out.dialect = name;
    out.consumer.onDialect(name);
  }
  if (out.collected.length === 0) return;
  const events = out.collected;
  out.collected = [];
  out.consumer.onEvents(events, readingStep(chunk, true));
}

/**
 * Reads chunk-sized stretches: one per thread, refilled by each read, as a single thread reads its file. Every use
 * feeds the bytes to the normalizer at once, which copies what it keeps.
 */
const scratch = Buffer.allocUnsafe(CHUNK);

/** The bytes from `from` to `to`: a view of {@link scratch}, valid until the next read, when they fit in it. */
function readBytes(file: RangeFile, from: number, to: number): Uint8Array {
  const buffer = to - from <= scratch.length ? scratch.subarray(0, to - from) : Buffer.allocUnsafe(to - from);
  let done = 0;
  while (done < buffer.length) {
    const read = readSync(file.fd, buffer, done, buffer.length - done, from + done);
    if (read === 0)
      throw new Error(`the file ended at byte ${from + done}, before ${to}: it changed while read`);
    done += read;
  }
  return buffer;
}

function feed(state: ReadState, out: Output, file: RangeFile, to: number, chunk: number): void {
  const bytes = readBytes(file, state.pos, to);
  state.cursor.target = recordsTo(state, out, chunk);
  const events = state.normalizer.feed(bytes);
  absorb(state, out, events);
  if (state.cursor.lastRecordEnd !== to) noteTakenLastLine(state.cursor, events, bytes, state.pos, to);
  out.read += to - state.pos;
  state.pos = to;
}

/**
 * A line the normalizer took without a value is not given to `onRecord`, so the cursor learns of it from its events:
 * when the fed bytes end with a whole line whose record gave the last event, the last record ends where they do, and
 * a cut there may be accepted. Anything else leaves the cursor as it was, which only refuses the cut.
 */
function noteTakenLastLine(
  cursor: RecordCursor,
  events: readonly CanonicalEvent[],
  bytes: Uint8Array,
  from: number,
  to: number,
): void {
  const last = events.at(-1);
  if (last === undefined || last.type === 'invalid-line' || bytes.at(-1) !== LINE_FEED) return;
  const lineStart = from + (bytes.length < 2 ? 0 : bytes.lastIndexOf(LINE_FEED, bytes.length - 2) + 1);
  if (last.loc?.offset === lineStart) cursor.lastRecordEnd = to;
}

/** Whether the one line fed at a cut gave exactly a session start: one record there, and its events. */
function startsSession(
  cut: number,
  length: number,
  state: ReadState,
  records: readonly [NdjsonRecord, Dialect | undefined][],
  events: readonly CanonicalEvent[],
): boolean {
  const local = cut - state.shift.bytes;
  const [record] = records;
  if (records.length !== 1 || record?.[0].offset !== local || record[0].length !== length) return false;
  if (!events.every((event) => event.loc?.offset === local)) return false;
  // A session cut here gets its finish first; the init's own event opens the next session.
  const opening = events[0]?.type === 'finish' ? 1 : 0;
  return (
    events[opening]?.type === 'stream-start' && events.slice(opening + 1).every((e) => e.type !== 'finish')
  );
}

function lineAt(file: RangeFile, cut: number): Uint8Array | undefined {
  const chunkEnd = Math.min((Math.floor(cut / CHUNK) + 1) * CHUNK, file.bounds.at(-1) ?? 0);
  const bytes = readBytes(file, cut, chunkEnd);
  const lineFeed = bytes.indexOf(LINE_FEED);
  return lineFeed === -1 ? undefined : bytes.subarray(0, lineFeed + 1);
}

/**
 * Checks the cut the reading has reached. Accepted: the events before it are delivered, the run's consumer ends
 * there, and the cut's session start is held. Refused: the reading has simply gone on through the cut's first line.
 */
function tryCut(state: ReadState, out: Output, file: RangeFile): boolean {
  const cut = state.pos;
  state.next += 1;
  if (
    state.cursor.lastRecordEnd !== cut ||
    !state.sawContent ||
    state.normalizer.dialect !== file.dialect ||
    state.cursor.mixed
  )
    return false;
  // The session start must end within the chunk: delivering the events before it then happens where one thread's does.
  const line = lineAt(file, cut);
  if (line === undefined) return false;
  const chunk = Math.floor(cut / CHUNK);
  const records: [NdjsonRecord, Dialect | undefined][] = [];
  state.cursor.target = (record, dialect) => {
    records.push([record, dialect]);
  };
  const events = state.normalizer.feed(line);
  state.pos = cut + line.length;
  out.read += line.length;
  if (state.cursor.mixed || !startsSession(cut, line.length, state, records, events)) {
    const target = recordsTo(state, out, chunk);
    for (const [record, dialect] of records) target(record, dialect);
    absorb(state, out, events);
    return false;
  }
  const cutSession = events[0]?.type === 'finish' ? events.slice(0, 1) : [];
  const where = shiftLocation(events[cutSession.length]?.loc as SourceLocation, state.shift);
  absorb(state, out, cutSession);
  deliver(state, out, chunk);
  out.consumer.end(where, readingStep(chunk, true), false);
  state.held = { records, events: events.slice(cutSession.length), chunk };
  return true;
}

/** Everything made since the last batch, as a batch. */
function takeBatch(out: Output): RunBatch {
  const taken = out.consumer.take();
  const batch: RunBatch = {
    items: out.items.length === 0 ? taken.items : [...out.items, ...taken.items],
    count: out.count + taken.count,
    bytes: out.bytes + taken.bytes,
    touches: out.touches,
    read: out.read,
  };
  out.items = [];
  out.count = 0;
  out.bytes = 0;
  out.touches = [];
  out.read = 0;
  return batch;
}

/** Sends what was made once it is a batch's worth; resolves when the run may go on. */
async function flush(out: Output, io: RunIo): Promise<void> {
  const taken = out.consumer.take();
  for (const item of taken.items) out.items.push(item);
  out.count += taken.count;
  out.bytes += taken.bytes;
  if (out.silent) return;
  if (out.bytes >= BATCH_BYTES || out.touches.length >= BATCH_TOUCHES) await io.send(takeBatch(out));
}

/** The end of input: what the normalizer still held, delivered after the last chunk, as one thread does. */
function endInput(state: ReadState, out: Output, endOfInput: SourceLocation, size: number): void {
  absorb(state, out, state.normalizer.end());
  const step = Math.floor(Math.max(0, size - 1) / CHUNK) + 1;
  deliver(state, out, step);
  out.consumer.end(endOfInput, readingStep(step, true), true);
}

/** How a run ended. */
export interface RunEnd {
  /** The range it stopped at the start of: the number of ranges when it read to the end. */
  readonly end: number;
  /** Whether the state was kept at an accepted cut, for the next range to be read again from. */
  readonly parked: boolean;
  readonly batch: RunBatch;
  readonly summary: RunSummary;
}

function summaryOf(state: ReadState, out: Output, until: number): RunSummary {
  const foreign = state.normalizer.foreign;
  const moved = foreign === undefined ? undefined : shiftForeign(foreign, state.shift);
  const own = moved !== undefined && moved.loc.offset >= out.from && moved.loc.offset < until;
  const pending = out.blind || out.started.size > MAX_PENDING_REPORTED ? null : [...out.started];
  return {
    events: out.events,
    invalidLines: out.invalidLines,
    foreign: own ? moved : null,
    pending,
    result: out.consumer.result(),
  };
}

/** Where the run is within its chunk, so that events are delivered once per chunk end, as one thread does. */
function atChunkEnd(pos: number, size: number): boolean {
  return pos % CHUNK === 0 || pos === size;
}

/** Reads until an accepted cut (cuts before `acceptFrom` are read through) or the end of the file; `undefined` when cancelled. */
async function readOn(
  state: ReadState,
  out: Output,
  file: RangeFile,
  io: RunIo,
  endOfInput: SourceLocation,
  acceptFrom = state.next,
): Promise<RunEnd | undefined> {
  const size = file.bounds.at(-1) ?? 0;
  const ranges = file.bounds.length - 1;
  for (let delivered = state.pos, chunks = 0; !io.cancelled(); ) {
    const cut = state.next < ranges ? (file.bounds[state.next] ?? size) : size;
    if (state.next < ranges && state.pos === cut) {
      if (state.next < acceptFrom) state.next += 1;
      else if (tryCut(state, out, file))
        return {
          end: state.next - 1,
          parked: true,
          batch: takeBatch(out),
          summary: summaryOf(state, out, cut),
        };
    } else if (state.pos < size) {
      const chunk = Math.floor(state.pos / CHUNK);
      feed(state, out, file, Math.min((chunk + 1) * CHUNK, size, cut), chunk);
    } else {
      endInput(state, out, endOfInput, size);
      return { end: ranges, parked: false, batch: takeBatch(out), summary: summaryOf(state, out, size) };
    }
    if (state.pos === delivered || !atChunkEnd(state.pos, size)) continue;
    delivered = state.pos;
    deliver(state, out, Math.floor((state.pos - 1) / CHUNK));
    await flush(out, io);
    // A turn of the event loop now and then lets a cancel or a credit in while no batch is due.
    if (++chunks % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return undefined;
}

/**
 * Whether a run from a cut reads exactly what one thread does whatever calls the ranges before it left open: its
 * first record is a session start (the cut is accepted only then) of a dialect that forgets them there.
 */
function callsEndAtCut(file: RangeFile): boolean {
  return BUILT_IN_DIALECTS.find((dialect) => dialect.name === file.dialect)?.callsEndWithSession === true;
}

/** Reads from the start of a range with a fresh normalizer. */
export function runFresh(
  state: ReadState,
  consumer: RangeConsumer,
  file: RangeFile,
  io: RunIo,
  endOfInput: SourceLocation,
): Promise<RunEnd | undefined> {
  const fromCut = state.pos > 0;
  const out = createOutput(consumer, state.pos, false, !(fromCut && callsEndAtCut(file)));
  return readOn(state, out, file, io, endOfInput);
}

/** A consumer that takes everything and keeps nothing, for reading that only brings the state along. */
const SILENT: RangeConsumer = {
  onDialect() {},
  onEvents() {},
  end() {},
  take: () => ({ items: [], count: 0, bytes: 0 }),
  result: () => null,
};

/**
 * Brings a parked state to the cut at range `until`, reading the ranges between without output, and holds that
 * cut's session start there as if the run had stopped at it. Throws if the cut does not check out, which a cut
 * accepted before cannot fail: what it checks does not depend on tool calls, the one state a parked run knows better.
 */
async function catchUp(state: ReadState, file: RangeFile, io: RunIo, until: number): Promise<boolean> {
  if (state.next - 1 === until) return true;
  state.held = undefined;
  const out = createOutput(SILENT, state.pos, true);
  const end = await readOn(state, out, file, io, { line: 1, offset: 0 }, until);
  if (end === undefined) return false;
  if (end.end !== until) throw new Error(`reading again did not stop at range ${until}`);
  return true;
}

/**
 * Reads on from a parked state: up to range `until` without output, then that range's session start and the rest,
 * for a new consumer.
 */
export async function runResumed(
  state: ReadState,
  consumer: RangeConsumer,
  file: RangeFile,
  io: RunIo,
  at: { until: number; endOfInput: SourceLocation },
): Promise<RunEnd | undefined> {
  if (!(await catchUp(state, file, io, at.until))) return undefined;
  const held = state.held;
  const from = held === undefined ? state.pos : state.shift.bytes + (held.records[0]?.[0].offset ?? 0);
  const out = createOutput(consumer, from);
  state.held = undefined;
  if (held !== undefined) {
    const target = recordsTo(state, out, held.chunk);
    for (const [record, dialect] of held.records) target(record, dialect);
    absorb(state, out, held.events);
    // The session start ended its chunk: its events were delivered with that chunk.
    if (state.pos % CHUNK === 0) deliver(state, out, held.chunk);
  }
  return readOn(state, out, file, io, at.endOfInput);
}
