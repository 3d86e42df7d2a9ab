/**
 * The one read loop every reader of a log file shares: open a log, decompress it if needed, refuse binary input, count its lines
 * and bytes, and run its chunks through the core normalizer, handing each batch of canonical events on.
 * Memory stays bounded by the largest record: chunks are fed as they are read and never kept.
 */

import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type CanonicalEvent,
  createNormalizer,
  type Dialect,
  type ForeignLog,
  type NormalizerOptions,
} from '@cursor-stream/core/normalize';
import type { Redactor } from '@cursor-stream/core/redact';
import type { NdjsonRecord } from '@cursor-stream/ndjson';
import { decompressedChunks, hasGzipExtension } from './decompress.ts';
import { createForeignLogWindow, FOREIGN_LOG_WINDOW_BYTES } from './foreign-log-window.ts';
import type { GzipTrailingProblem } from './gunzip-members.ts';
import { createLineCounter } from './line-counter.ts';
import { ioError, type LogError, type LogResult, logError } from './log-error.ts';
import { type LogSource, openLog, READS_PER_TURN } from './open-log.ts';
import type { Progress } from './progress.ts';
import { createTextSniffer, startsLikeGzip } from './text-sniff.ts';
import { watchLineLengths } from './young-generation.ts';

/** How a log's bytes become canonical events. */
export interface ReadingOptions {
  /** `auto` (detect per stream; the default) or the name of the dialect to read it with. */
  readonly dialect?: string | undefined;
  /** The largest record held in memory; larger ones are reported as `oversize` and skipped. */
  readonly maxRecordBytes?: number | undefined;
  /**
   * What to do with another agent's log (one with a record only that agent writes within
   * {@link FOREIGN_LOG_WINDOW_BYTES} of its first record): `read` it like any log, its problem named (the default:
   * what `validate` and `census` show), or `leave-out` its events, so that no session, token, row or line of it is
   * taken for Cursor's.
   */
  readonly foreignLogs?: 'read' | 'leave-out' | undefined;
  /**
   * Takes secrets out of everything read before anyone sees it: each event, and each record's value and text
   * handed to `onRecord`. Its counts say what it removed.
   */
  readonly redactor?: Redactor | undefined;
}

/** Standard input as a log reader takes it: bytes or text, and whether it is a terminal (then nothing is piped). */
export type StandardInput = AsyncIterable<Uint8Array | string> & { readonly isTTY?: boolean | undefined };

/** How to read a log, and who receives what it holds. */
export interface ReadLogOptions extends ReadingOptions {
  /** Standard input, read for the path `-`: `process.stdin` by default. */
  readonly stdin?: StandardInput;
  /** Tail the file until this signal aborts. */
  readonly follow?: AbortSignal;
  /** While following: the file was truncated, and is read again from its start. */
  readonly onTruncated?: () => void;
  /** While following: the name now leads to another file (rotated, replaced), which is read from its start. */
  readonly onReplaced?: () => void;
  /** The path was a regular file when listed: see `openLog`'s option of the same name. */
  readonly regularFile?: boolean | undefined;
  /** Makes the progress display for an input of `size` bytes (unknown for a pipe). */
  readonly progress?: (size: number | undefined, label: string) => Progress;
  /** Receives each batch of canonical events, in input order. Awaited, so a slow consumer slows the reading. */
  onEvents(events: readonly CanonicalEvent[]): void | Promise<void>;
  /** Receives each record with the dialect that normalized it (`undefined`: none did). */
  onRecord?: (record: NdjsonRecord, dialect: Dialect | undefined) => void;
  /** Which records `onRecord` receives; see the normalizer's option of the same name. */
  onRecordFor?: NormalizerOptions['onRecordFor'];
  /**
   * Whether long strings are left undecoded until read; see the normalizer's option of the same name. A reader that
   * reads every string anyway (a schema check does) turns it off: the scan that cuts them out would be extra work.
   *
   * @defaultValue `true`
   */
  lazyStrings?: boolean;
  /** Told the stream's dialect as soon as it is known (forced, or detected), before the events it read. */
  onDialect?: (dialect: string) => void;
}

/** What reading a log found, besides its events. */
export interface LogStats {
  /** Physical lines of the (decompressed) input. */
  lines: number;
  /** Bytes of the (decompressed) input. */
  bytes: number;
  /** Canonical events produced. */
  events: number;
  /** `invalid-line` events among them. */
  invalidLines: number;
  /** The dialect that read the stream: the one forced, or the one detected; `null` when none was. */
  dialect: string | null;
  /**
   * Set when the log is another agent's (or mixes its records in), at its first record of theirs; then also one of
   * the `inputProblems`.
   */
  foreign: ForeignLog | null;
  /** Whether the log was left out as another agent's (see {@link ReadingOptions.foreignLogs}): none of its events were delivered. */
  leftOut: boolean;
  /**
   * Problems of the input after its readable part (gzip trailing garbage, a cut gzip member), each located: the
   * events before them were delivered. They are the log's problems as its invalid lines are.
   */
  inputProblems: LogError[];
}

/** What reads a log without showing how far it got. */
const NO_PROGRESS: Progress = { advance() {}, done() {} };

/**
 * Another agent's log is refused like a broken input: the problem says whose it is, where, and whether it was left
 * out of what the command counts.
 */
export function foreignProblem(foreign: ForeignLog, path: string, leftOut = false): LogError {
  const what = `line ${foreign.loc.line}: ${foreign.message}`;
  return {
    ...logError('foreign-format', leftOut ? `${what}; left out` : what, path),
    line: foreign.loc.line,
  };
}

function normalizerOptions(options: ReadLogOptions): NormalizerOptions {
  const result: NormalizerOptions = {};
  if (options.dialect !== undefined) result.dialect = options.dialect;
  if (options.maxRecordBytes !== undefined) result.maxRecordBytes = options.maxRecordBytes;
  const { onRecord, redactor } = options;
  if (onRecord !== undefined)
    result.onRecord =
      redactor === undefined
        ? onRecord
        : (record, dialect) =>
            onRecord(
              // The record's secrets are counted once, in the events read from it.
              {
                ...record,
                value: redactor.uncounted.value(record.value),
                text: redactor.uncounted.text(record.text),
              },
              dialect,
            );
  if (options.onRecordFor !== undefined) result.onRecordFor = options.onRecordFor;
  if (options.lazyStrings !== undefined) result.lazyStrings = options.lazyStrings;
  return result;
}

async function* measured(chunks: AsyncIterable<Uint8Array>, progress: Progress): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    progress.advance(chunk.length);
    yield chunk;
  }
}

/** The chunks of a source that reads synchronously, the first one already read, as an async iterable. */
async function* resumed(
  first: Uint8Array,
  readChunkSync: () => Uint8Array | null,
): AsyncGenerator<Uint8Array> {
  yield first;
  for (let reads = 1; ; reads++) {
    if (reads % READS_PER_TURN === READS_PER_TURN - 1) await nextTurn();
    const chunk = readChunkSync();
    if (chunk === null) return;
    yield chunk;
  }
}

/** The next chunk (`null` at the end); a read or gzip failure becomes an I/O error about the log. */
async function nextChunk(
  chunks: AsyncGenerator<Uint8Array>,
  path: string,
): Promise<LogResult<Uint8Array | null>> {
  try {
    const next = await chunks.next();
    return { ok: true, value: next.done ? null : next.value };
  } catch (error) {
    return { ok: false, error: ioError(path, error) };
  }
}

/** A synchronous read of the next chunk (`null` at the end); a failure becomes an I/O error about the log. */
function nextChunkSync(readChunkSync: () => Uint8Array | null, path: string): LogResult<Uint8Array | null> {
  try {
    return { ok: true, value: readChunkSync() };
  } catch (error) {
    return { ok: false, error: ioError(path, error) };
  }
}

/**
 * Where a log's bytes come from, decompressed: a plain regular file's chunks read synchronously, one promise fewer
 * per layer and chunk, or else the chain of async iterables. Whether a file is gzip shows only in its first chunk.
 */
interface ChunkPuller {
  /** The next chunk (`null` at the end), valid until the next is asked for. */
  next(): LogResult<Uint8Array | null> | Promise<LogResult<Uint8Array | null>>;
  /** Stops the chain, if one was made. */
  stop(): Promise<void>;
}

function createChunkPuller(
  source: LogSource,
  progress: Progress,
  onProblem: (problem: GzipTrailingProblem) => void,
): ChunkPuller {
  const { path, readChunkSync } = source;
  let chain: AsyncGenerator<Uint8Array> | undefined;
  function chainFrom(raw: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    chain = decompressedChunks(path, measured(raw, progress), onProblem);
    return chain;
  }
  if (readChunkSync === undefined || hasGzipExtension(path)) chainFrom(source.chunks);
  function readNext(first: boolean): LogResult<Uint8Array | null> | Promise<LogResult<Uint8Array | null>> {
    const read = nextChunkSync(readChunkSync as () => Uint8Array | null, path);
    if (!read.ok || read.value === null) return read;
    // Input that starts like gzip is decompressed whatever its name (a `zcat`-free pipe saved to a file).
    if (first && startsLikeGzip(read.value))
      return nextChunk(chainFrom(resumed(read.value, readChunkSync as () => Uint8Array | null)), path);
    progress.advance(read.value.length);
    return read;
  }
  let reads = 0;
  return {
    next() {
      if (chain !== undefined) return nextChunk(chain, path);
      reads += 1;
      if (reads % READS_PER_TURN === 0) return nextTurn().then(() => readNext(false));
      return readNext(reads === 1);
    },
    async stop() {
      await chain?.return(undefined);
    },
  };
}

function notText(path: string, why: string): LogError {
  return logError('not-text', `not a text log (${why})`, path);
}

/** Hands batches of events on, counting them and the invalid lines among them. */
function createDelivery(onEvents: ReadLogOptions['onEvents'], redactor: Redactor | undefined) {
  const counts = { events: 0, invalidLines: 0 };
  function deliver(batch: readonly CanonicalEvent[]): void | Promise<void> {
    if (batch.length === 0) return;
    counts.events += batch.length;
    for (const event of batch) if (event.type === 'invalid-line') counts.invalidLines += 1;
    return onEvents(redactor === undefined ? batch : batch.map((event) => redactor.event(event)));
  }
  return { counts, deliver };
}

/**
 * Set while following when the file was truncated or replaced: every byte of the file before has been read, and what
 * comes next is another file's, from its line 1.
 */
interface Restart {
  pending: boolean;
}

async function readSource(
  source: LogSource,
  options: ReadLogOptions,
  restart: Restart = { pending: false },
): Promise<LogResult<LogStats>> {
  let normalizer = createNormalizer(normalizerOptions(options));
  let counter = createLineCounter();
  const progress = options.progress?.(source.size, source.path) ?? NO_PROGRESS;
  const { counts, deliver } = createDelivery(options.onEvents, options.redactor);
  const inputProblems: LogError[] = [];
  const chunks = createChunkPuller(source, progress, ({ offset, message }) =>
    inputProblems.push(logError('bad-gzip', `at compressed byte ${offset}: ${message}`, source.path)),
  );
  let dialect: string | undefined;
  const sniffer = createTextSniffer();
  const noteChunk = watchLineLengths();
  // Leaving another agent's log out: its first window's events wait until it is known whose the log is.
  let held: CanonicalEvent[] | null = options.foreignLogs === 'leave-out' ? [] : null;
  let window = createForeignLogWindow();
  let leftOut = false;
  // Not async: a chunk whose events no one awaits costs no promise.
  function pass(events: readonly CanonicalEvent[], atEnd: boolean): void | Promise<void> {
    if (leftOut) return;
    if (held !== null) {
      held.push(...events);
      window.observe(events);
      if (window.fromStart(normalizer.foreign)) {
        leftOut = true;
        held = null;
        return;
      }
      // Not before every record that starts in the window has been read: one that ends past it may be theirs.
      if (!atEnd && !window.passed(counter.bytes - normalizer.bufferedBytes)) return;
      const waiting = held;
      held = null;
      return deliver(waiting);
    }
    return deliver(events);
  }
  try {
    for (;;) {
      const pulled = chunks.next();
      const next = pulled instanceof Promise ? await pulled : pulled;
      if (!next.ok) {
        // A read that fails part-way (a reset connection, a disk error) still hands on what was read, as a log cut
        // there would: a command that wrote some sessions ends its output whole, and the error says why it stopped.
        if (counter.bytes > 0) await pass(normalizer.end(), true);
        return next;
      }
      const chunk = next.value;
      if (chunk === null) break;
      if (restart.pending) {
        // The file before ends here, as a log cut there would: its last session is told as unfinished, and the new
        // file's lines are numbered from 1, its sessions its own.
        restart.pending = false;
        await pass(normalizer.end(), true);
        normalizer = createNormalizer(normalizerOptions(options));
        counter = createLineCounter();
        held = options.foreignLogs === 'leave-out' ? [] : null;
        window = createForeignLogWindow();
        leftOut = false;
        dialect = undefined;
      }
      const notTextReason = sniffer.check(chunk);
      if (notTextReason !== null) return { ok: false, error: notText(source.path, notTextReason) };
      counter.add(chunk);
      noteChunk(chunk);
      // Another agent's log left out is only counted from here: what its records make would be thrown away.
      if (leftOut) continue;
      const events = normalizer.feed(chunk);
      if (normalizer.dialect !== undefined && normalizer.dialect !== dialect) {
        dialect = normalizer.dialect;
        options.onDialect?.(dialect);
      }
      const passed = pass(events, false);
      if (passed !== undefined) await passed;
    }
  } finally {
    progress.done();
    await chunks.stop();
  }
  if (!leftOut) {
    const last = normalizer.end();
    if (normalizer.dialect !== undefined && normalizer.dialect !== dialect)
      options.onDialect?.(normalizer.dialect);
    await pass(last, true);
  }
  const foreign = normalizer.foreign;
  if (foreign !== undefined) inputProblems.push(foreignProblem(foreign, source.path, leftOut));
  const stats = {
    lines: counter.lines,
    bytes: counter.bytes,
    ...counts,
    dialect: normalizer.dialect ?? null,
    foreign: foreign ?? null,
    leftOut,
    inputProblems,
  };
  return { ok: true, value: stats };
}

/**
 * Reads one log through the normalizer. I/O failures (missing, unreadable, a directory, not text, bad gzip) come
 * back as a {@link LogError}; bad lines inside the log are `invalid-line` events, counted in the stats. A read that
 * fails part-way has handed on the events of what it read first, ended as a log cut there would be.
 *
 * @param path - A file path, or `-` for standard input.
 */
export async function readLog(path: string, options: ReadLogOptions): Promise<LogResult<LogStats>> {
  const stdin = options.stdin ?? process.stdin;
  if (path === '-' && stdin.isTTY === true) {
    return {
      ok: false,
      error: logError('usage', 'no input: give a FILE, or pipe a log into standard input'),
    };
  }
  const restart: Restart = { pending: false };
  const opened = await openLog(path, {
    stdin,
    ...(options.follow === undefined
      ? {}
      : {
          follow: options.follow,
          onTruncated: () => {
            restart.pending = true;
            options.onTruncated?.();
          },
          onReplaced: () => {
            restart.pending = true;
            options.onReplaced?.();
          },
        }),
    ...(options.regularFile === true ? { regularFile: true } : {}),
  });
  if (!opened.ok) return opened;
  try {
    return await readSource(opened.value, options, restart);
  } finally {
    await opened.value.close();
  }
}
