/**
 * The normalizer proper: tokenizer records in, dialect chosen per record, canonical events out, sessions kept whole.
 * It knows dialects only through the {@link Dialect} interface; which ones, and the default, are the caller's.
 */

import {
  createNdjsonTokenizer,
  DEFAULT_MAX_RECORD_BYTES,
  excerptOf,
  type NdjsonLineView,
  type NdjsonProblem,
  type NdjsonRecord,
  type NdjsonTokenizer,
} from '@cursor-stream/ndjson';
import type { Dialect, DialectContext, JsonObject } from '../dialect.ts';
import type { CanonicalEvent, InvalidLineCode, InvalidLineEvent, SourceLocation } from '../events/index.ts';
import { type ForeignLog, foreignAgentOf, foreignLogOf, unknownFormatLog } from '../foreign-agents.ts';
import { isJsonObject } from '../json-values.ts';
import { createLineReader, type LineReader } from '../record-readers/line-templates.ts';
import { MAX_LEARNT_RECORD_BYTES } from '../record-readers/record-templates.ts';
import {
  exceedsJsonDepth,
  type JsonWriteProblem,
  MAX_JSON_DEPTH,
  mayNestDeeperThan,
  safeJsonStringify,
} from '../safe-json.ts';
import { unknownEvent } from '../unknown-event.ts';
import { createDialectRouter } from './dialect-router.ts';
import type { Normalizer, NormalizerOptions } from './normalizer-types.ts';
import { createSessionTracker } from './session-tracker.ts';
import { skipFilterFor } from './skip-filter.ts';

/** How deep `reparse` may nest (a wrapper's `raw` holding a stored record holding a `raw` ...). */
const MAX_REPARSE_DEPTH = 8;
const LEFT_BRACE = 0x7b;
const RIGHT_BRACE = 0x7d;

/** The dialects the engine routes between, and the one forced, if any. */
export interface EngineDialects {
  readonly list: readonly Dialect[];
  readonly forced: Dialect | undefined;
}

function invalidLine(
  code: InvalidLineCode,
  message: string,
  excerpt: string,
  loc: SourceLocation,
): InvalidLineEvent {
  return { type: 'invalid-line', code, message, excerpt, loc };
}

/**
 * A record's source: its text, read only when an excerpt or a dialect asks for it (a long record's text is decoded
 * lazily), and an upper bound of its length in UTF-16 units, for the cheap depth test.
 */
interface RecordSource {
  readonly text: string;
  readonly length: number;
}

function sourceOfText(text: string): RecordSource {
  return { text, length: text.length };
}

/** What a reused context holds between records. */
const NO_SOURCE = sourceOfText('');

/** The events of a record no dialect explains: `unknown` if it has a string `type`, else `invalid-line`. */
function unexplainedRecord(record: JsonObject, loc: SourceLocation, text: string): CanonicalEvent {
  const type = record.type;
  if (typeof type === 'string') {
    const sessionId = typeof record.session_id === 'string' ? record.session_id : undefined;
    return unknownEvent(record, type, loc, sessionId);
  }
  const message = 'No dialect explains this record: it has no string `type`.';
  return invalidLine('unrecognized-record', message, excerptOf(text), loc);
}

/** Whether a dialect's answer is what every reader downstream takes it for: a list of objects with a string `type`. */
function isEventList(events: unknown): events is readonly CanonicalEvent[] {
  if (!Array.isArray(events)) return false;
  for (const event of events)
    if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string')
      return false;
  return true;
}

/**
 * A record nested deeper than {@link MAX_JSON_DEPTH}, or whose events are: nothing downstream could write or walk
 * it. Only a long text can nest that deep (each level takes two characters), so short records cost no walk. A
 * record's byte length bounds its text's length, so either may be given.
 */
function tooDeepRecord(
  value: unknown,
  length: number,
  events: readonly CanonicalEvent[] | undefined,
): boolean {
  if (!mayNestDeeperThan(length, MAX_JSON_DEPTH)) return false;
  if (events === undefined) return exceedsJsonDepth(value, MAX_JSON_DEPTH);
  // An event may hold a value a dialect parsed out of one of the record's strings, a level or two below the event.
  return events.some((event) => exceedsJsonDepth(event, MAX_JSON_DEPTH + 2));
}

function tooDeepLine(text: string, loc: SourceLocation): InvalidLineEvent {
  const message = `The record nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`;
  return invalidLine('too-deep', message, excerptOf(text), loc);
}

/**
 * A value pushed as a record, as JSON text and a plain copy read back from it: a caller's object may hold getters
 * (which could throw later, wherever an event is written), cycles, BigInts or nesting too deep to write.
 */
function snapshotPushed(value: unknown): { text: string; value: unknown } | JsonWriteProblem {
  const written = safeJsonStringify(value, undefined, MAX_JSON_DEPTH);
  if (!written.ok) return written;
  return { text: written.text, value: JSON.parse(written.text) };
}

/** What one record gave: the dialect that normalized it (if any) and its events. */
interface Normalized {
  dialect: Dialect | undefined;
  events: readonly CanonicalEvent[];
}

/** What a list of dialects offers the tokenizer: the same for every stream read with the list. */
interface DialectListTraits {
  /** The dialects that read prefixed text lines as their records. */
  readonly textLineDialects: readonly Dialect[];
  readonly anyHotLines: boolean;
  readonly anyRecordReader: boolean;
}

/**
 * Each list's traits, worked out when a normalizer is first made with it (a list is not changed once in use): a
 * folder of small logs makes a normalizer per log, with the same list.
 */
const listTraits = new WeakMap<readonly Dialect[], DialectListTraits>();

function traitsOf(dialects: readonly Dialect[]): DialectListTraits {
  let traits = listTraits.get(dialects);
  if (traits === undefined) {
    traits = {
      textLineDialects: dialects.filter((dialect) => dialect.readTextLine !== undefined),
      anyHotLines: dialects.some((dialect) => dialect.hotLines !== undefined),
      anyRecordReader: dialects.some((dialect) => dialect.recordReader !== undefined),
    };
    listTraits.set(dialects, traits);
  }
  return traits;
}

/**
 * The context a dialect normalizes a record in; its text is read from the record's source only if asked. A class,
 * as is {@link NormalizerFace}, so that the `text` getter lives on one shared prototype: a getter in an object
 * literal is a closure of its own, giving every object a hidden class of its own, and V8 keeps such an object's
 * closures, with the whole normalizer they reach, until a full collection, however soon the normalizer is dropped.
 */
class RecordContext implements DialectContext<unknown> {
  readonly state: unknown;
  loc: SourceLocation;
  source: RecordSource;
  readonly #reparseAt: (text: string, loc: SourceLocation) => readonly CanonicalEvent[];

  constructor(
    state: unknown,
    loc: SourceLocation,
    source: RecordSource,
    reparseAt: (text: string, loc: SourceLocation) => readonly CanonicalEvent[],
  ) {
    this.state = state;
    this.loc = loc;
    this.source = source;
    this.#reparseAt = reparseAt;
  }

  get text(): string {
    return this.source.text;
  }

  reparse(text: string): readonly CanonicalEvent[] {
    return this.#reparseAt(text, this.loc);
  }
}

/** What a normalizer does, as functions over its state; {@link NormalizerFace} is its public face. */
interface NormalizerParts {
  feed(chunk: Uint8Array | string): readonly CanonicalEvent[];
  pushRecord(value: unknown, loc?: SourceLocation): readonly CanonicalEvent[];
  end(): readonly CanonicalEvent[];
  foreign(): ForeignLog | undefined;
  dialect(): string | undefined;
  bufferedBytes(): number;
}

/** A normalizer's public face, its getters on the prototype (see {@link RecordContext}). */
class NormalizerFace implements Normalizer {
  readonly #parts: NormalizerParts;

  constructor(parts: NormalizerParts) {
    this.#parts = parts;
  }

  feed(chunk: Uint8Array | string): readonly CanonicalEvent[] {
    return this.#parts.feed(chunk);
  }

  pushRecord(value: unknown, loc?: SourceLocation): readonly CanonicalEvent[] {
    return this.#parts.pushRecord(value, loc);
  }

  end(): readonly CanonicalEvent[] {
    return this.#parts.end();
  }

  get foreign(): ForeignLog | undefined {
    return this.#parts.foreign();
  }

  get dialect(): string | undefined {
    return this.#parts.dialect();
  }

  get bufferedBytes(): number {
    return this.#parts.bufferedBytes();
  }
}

/** A normalizer over the given dialects. */
export function createNormalizerEngine(
  options: Omit<NormalizerOptions, 'dialect' | 'dialects'>,
  dialects: EngineDialects,
): Normalizer {
  const { textLineDialects, anyHotLines, anyRecordReader } = traitsOf(dialects.list);
  const router = createDialectRouter(dialects.list, dialects.forced);
  const tracker = createSessionTracker();
  const { onRecord, maxRecordBytes } = options;
  const reparseLimit = maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const wanted = options.types === undefined ? undefined : new Set(options.types);
  const skipRecord = wanted === undefined ? undefined : skipFilterFor(dialects.list, wanted);
  let out: CanonicalEvent[] = [];
  let reparseDepth = 0;
  let ended = false;
  let pushedRecords = 0;
  let foreign: ForeignLog | undefined;
  // What the log is named if it ends with no record a dialect explains.
  let firstUnexplained: ForeignLog | undefined;

  /**
   * One context per dialect for top-level records, reused: a record's context lives only during its `normalize`.
   * Its text is read from the record's source only if the dialect asks.
   */
  const topContexts = new Map<Dialect, RecordContext>();

  function contextFor(dialect: Dialect, loc: SourceLocation, source: RecordSource): DialectContext<unknown> {
    if (reparseDepth === 0) {
      let context = topContexts.get(dialect);
      if (context === undefined) {
        context = new RecordContext(router.stateOf(dialect), loc, source, reparse);
        topContexts.set(dialect, context);
      }
      context.loc = loc;
      context.source = source;
      return context;
    }
    return new RecordContext(router.stateOf(dialect), loc, source, reparse);
  }

  function normalizeValue(record: JsonObject, loc: SourceLocation, source: RecordSource): Normalized {
    if (foreign === undefined && reparseDepth === 0) foreign = foreignLogOf(record, loc);
    if (tooDeepRecord(record, source.length, undefined))
      return { dialect: undefined, events: [tooDeepLine(source.text, loc)] };
    const dialect = router.route(record);
    if (dialect === undefined) {
      if (firstUnexplained === undefined && reparseDepth === 0)
        firstUnexplained = unknownFormatLog(record, loc);
      return { dialect, events: [unexplainedRecord(record, loc, source.text)] };
    }
    let events: readonly CanonicalEvent[];
    try {
      events = dialect.normalize(record, contextFor(dialect, loc, source));
    } catch (error) {
      // A dialect must not throw, but a third party's might; the stream goes on.
      const message = `The ${dialect.name} dialect failed on this record: ${String(error)}`;
      return { dialect, events: [invalidLine('unrecognized-record', message, excerptOf(source.text), loc)] };
    } finally {
      // The reused context would otherwise hold the record's line (which may be huge) until the next record.
      const context = reparseDepth === 0 ? topContexts.get(dialect) : undefined;
      if (context !== undefined) context.source = NO_SOURCE;
    }
    if (!isEventList(events)) {
      const message = `The ${dialect.name} dialect gave something other than a list of events for this record.`;
      return { dialect, events: [invalidLine('unrecognized-record', message, excerptOf(source.text), loc)] };
    }
    const tooDeep = tooDeepRecord(record, source.length, events);
    return { dialect, events: tooDeep ? [tooDeepLine(source.text, loc)] : events };
  }

  /**
   * One tokenizer per reparse depth, reset for each text: a wrapper's records are reparsed one by one, and a fresh
   * tokenizer each time would allocate its state and its held-line buffer anew for every record.
   */
  const reparseTokenizers: NdjsonTokenizer[] = [];

  function reparseTokenizerAt(depth: number): NdjsonTokenizer {
    let tokenizer = reparseTokenizers[depth];
    if (tokenizer === undefined) {
      tokenizer = createNdjsonTokenizer(
        maxRecordBytes === undefined ? { objectsOnly: true } : { objectsOnly: true, maxRecordBytes },
      );
      reparseTokenizers[depth] = tokenizer;
    } else tokenizer.reset();
    return tokenizer;
  }

  /**
   * The record `text` holds when it is one line that `JSON.parse` reads as an object, as most texts a wrapper holds
   * are: the tokenizer would give that very record, so it is not asked (it would encode the text to bytes and decode
   * it again). Anything else, several lines, a BOM, a broken record or one over the limit, is left to it.
   */
  function wholeRecordOf(text: string): JsonObject | undefined {
    const last = text.length - 1;
    // Three bytes at most for each UTF-16 unit: a text this short is within the limit in any encoding.
    if (last < 1 || text.length > reparseLimit / 3) return undefined;
    if (text.charCodeAt(0) !== LEFT_BRACE || text.charCodeAt(last) !== RIGHT_BRACE || text.includes('\n'))
      return undefined;
    try {
      const value: unknown = JSON.parse(text);
      return isJsonObject(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  function reparse(text: string, loc: SourceLocation): readonly CanonicalEvent[] {
    if (reparseDepth >= MAX_REPARSE_DEPTH) {
      return [invalidLine('unrecognized-record', 'Records nested too deeply to read.', excerptOf(text), loc)];
    }
    reparseDepth++;
    try {
      const record = wholeRecordOf(text);
      if (record !== undefined) return normalizeValue(record, loc, sourceOfText(text)).events;
      const tokenizer = reparseTokenizerAt(reparseDepth);
      const events: CanonicalEvent[] = [];
      for (const item of [...tokenizer.feed(text), ...tokenizer.end()]) {
        if ('code' in item) events.push(invalidLine(item.code, item.message, item.excerpt, loc));
        else events.push(...normalizeValue(item.value as JsonObject, loc, item).events);
      }
      return events;
    } finally {
      reparseDepth--;
    }
  }

  /** Passes on the events of one record, read by `dialect` (none: a line no dialect read). */
  function emit(events: readonly CanonicalEvent[], dialect?: Dialect): void {
    const name = dialect?.name;
    const detected = router.locked !== undefined;
    for (const event of events) tracker.track(event, out, name, detected);
  }

  // The value a reader read from the line being read: such a record needs no learning.
  let readValue: unknown;

  /**
   * The dialect whose reader reads lines (see `Dialect.recordReader`): the stream's, or before it is known the one
   * that explained its first shared record. A reader gives only what `JSON.parse` would, so reading with another
   * dialect's costs a failed match at most.
   */
  function readingDialect(): Dialect | undefined {
    return router.locked ?? router.fallback;
  }

  function parseKnownRecord(text: string): unknown {
    const value = readingDialect()?.recordReader?.read(text);
    if (value !== undefined) readValue = value;
    return value;
  }

  /** Lets the reading dialect's readers learn the layout of a record of its that `JSON.parse` read. */
  function learnLayout(record: NdjsonRecord, dialect: Dialect | undefined): void {
    if (dialect === undefined || dialect !== readingDialect() || record.length > MAX_LEARNT_RECORD_BYTES)
      return;
    dialect.recordReader?.learn(record.text, record.value as JsonObject);
    if (takesLines) lineReaderOf(dialect)?.learn(record.text, record.value as JsonObject);
  }

  // Whether lines may be taken without a value: not when the caller wants every record's value.
  const takesLines = (onRecord === undefined || options.onRecordFor === 'unproven-records') && anyHotLines;
  /** This stream's line reader of each dialect with hot lines: layouts and session ids are the stream's own. */
  const lineReaders = new Map<Dialect, LineReader>();

  function lineReaderOf(dialect: Dialect): LineReader | undefined {
    if (dialect.hotLines === undefined) return undefined;
    let reader = lineReaders.get(dialect);
    if (reader === undefined) {
      reader = createLineReader(dialect.hotLines.layouts, dialect.hotLines.learnAt);
      lineReaders.set(dialect, reader);
    }
    return reader;
  }

  /**
   * Takes a line of a learnt hot layout without a value: what {@link normalizeValue} does with its record, done on
   * the fields its events depend on. The record the layout was learnt from shares the line's constants, fixed fields
   * and keys, which is all that detection and the foreign-agent test read of such a record.
   */
  /**
   * Records of taken lines found, in a locked stream, to be of its dialect and no other agent's: a layout's record
   * changes only with its session, and the stream's layouts take turns line by line.
   */
  let routedRecords: WeakSet<JsonObject> | undefined;
  /** The router's lock when {@link routedRecords} was filled: a lock made since routes a shared record anew. */
  let routedLock: Dialect | undefined;

  function takeLine(view: NdjsonLineView): boolean {
    const dialect = readingDialect();
    const hotLines = dialect?.hotLines;
    if (dialect === undefined || hotLines === undefined) return false;
    const taken = lineReaderOf(dialect)?.take(view);
    if (taken === undefined) return false;
    if (routedLock !== router.locked) {
      routedRecords = undefined;
      routedLock = router.locked;
    }
    if (routedRecords?.has(taken.record) !== true) {
      if (foreign === undefined && foreignAgentOf(taken.record) !== undefined) return false;
      if (router.route(taken.record) !== dialect) return false;
      // Once the stream is this dialect's, routing the same record again gives the same answer and changes nothing;
      // so it does while no dialect has locked the stream (a log of shared records only: no tool call, no
      // model_call_id), until one does.
      if (router.locked === dialect || router.locked === undefined) {
        routedLock = router.locked;
        routedRecords ??= new WeakSet();
        routedRecords.add(taken.record);
      }
    }
    emit(hotLines.events(taken, { line: view.line, offset: view.offset }, router.stateOf(dialect)), dialect);
    return true;
  }

  function onTokenizerRecord(record: NdjsonRecord): void {
    const loc = { line: record.line, offset: record.offset };
    // The record is its own source: its `length` (bytes) bounds its text's length, and its text is read only if needed.
    const { dialect, events } = normalizeValue(record.value as JsonObject, loc, record);
    onRecord?.(record, dialect);
    emit(events, dialect);
    if (record.value === readValue) readValue = undefined;
    else learnLayout(record, dialect);
  }

  /** Reads a prefixed text line with the dialects that read them; the stream's own is asked first. */
  function readTextLine(text: string): JsonObject | undefined {
    const locked = router.locked;
    const order =
      locked !== undefined && textLineDialects.includes(locked)
        ? [locked, ...textLineDialects.filter((dialect) => dialect !== locked)]
        : textLineDialects;
    for (const dialect of order) {
      try {
        const record = dialect.readTextLine?.(text);
        if (record !== undefined) return record;
      } catch {
        // A dialect must not throw, but a third party's might: the line is then output, as without it.
      }
    }
    return undefined;
  }

  function onTokenizerProblem(problem: NdjsonProblem): void {
    emit([
      invalidLine(problem.code, problem.message, problem.excerpt, {
        line: problem.line,
        offset: problem.offset,
      }),
    ]);
  }

  const tokenizer = createNdjsonTokenizer({
    objectsOnly: true,
    // A capture kept as a JSON array, or pretty-printed, is read for the records it holds.
    documents: true,
    // Long tool outputs and file contents are decoded only if an event's reader reads them.
    lazyStrings: options.lazyStrings ?? true,
    onRecord: onTokenizerRecord,
    onProblem: onTokenizerProblem,
    ...(maxRecordBytes === undefined ? {} : { maxRecordBytes }),
    ...(skipRecord === undefined ? {} : { skipRecord }),
    ...(textLineDialects.length > 0 ? { readTextLine } : {}),
    ...(takesLines ? { takeLine } : {}),
    // Only dialects with a reader pay for asking it.
    ...(anyRecordReader ? { parseRecord: parseKnownRecord } : {}),
  });

  function drain(): readonly CanonicalEvent[] {
    const events = out;
    out = [];
    // Every event went through the session tracker first, so a finish still lists calls whose events are dropped.
    return wanted === undefined ? events : events.filter((event) => wanted.has(event.type));
  }

  return new NormalizerFace({
    feed(chunk) {
      tokenizer.feed(chunk);
      return drain();
    },
    pushRecord(pushed, loc) {
      pushedRecords++;
      const where = loc ?? { line: pushedRecords, offset: 0 };
      const snapshot = snapshotPushed(pushed);
      if (!('text' in snapshot)) {
        emit([invalidLine(snapshot.code, `The record ${snapshot.message}.`, '', where)]);
        return drain();
      }
      const { value, text } = snapshot;
      if (!isJsonObject(value)) {
        emit([invalidLine('not-an-object', 'The record is JSON but not an object.', excerptOf(text), where)]);
        return drain();
      }
      const { dialect, events } = normalizeValue(value, where, sourceOfText(text));
      onRecord?.({ value, text, line: where.line, offset: where.offset, length: 0 }, dialect);
      emit(events, dialect);
      return drain();
    },
    end() {
      tokenizer.end();
      for (const [dialect, state] of router.states()) {
        if (dialect.endStream === undefined) continue;
        try {
          emit(dialect.endStream(state), dialect);
        } catch {
          // A dialect must not throw; a third party's might, and the stream still ends.
        }
      }
      tracker.end(out);
      ended = true;
      if (foreign === undefined && router.locked === undefined && router.fallback === undefined)
        foreign = firstUnexplained;
      return drain();
    },
    foreign: () => foreign,
    bufferedBytes: () => tokenizer.bufferedBytes,
    // A stream of shared records only (init, prompt, thinking, text, result) is, once complete, best named by the
    // dialect that explained them; while it streams, a distinctive record may still come.
    dialect: () => router.locked?.name ?? (ended ? router.fallback?.name : undefined),
  });
}
