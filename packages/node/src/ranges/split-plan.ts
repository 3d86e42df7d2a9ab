/**
 * Where a large log file is cut into ranges for worker threads: at lines that start a session (`system/init`), about
 * {@link RANGE_BYTES} apart. The plan only proposes cuts. A line that looks like a session start may sit inside
 * another record's string (a raw line feed in a `call_id`), so the worker that reads up to a cut checks it (see
 * `range-run.ts`), and a cut that fails the check costs time, never correctness.
 */

import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { createNormalizer } from '@cursor-stream/core/normalize';
import { DOCUMENT_SNIFF_BYTES, startsLikeJsonDocument } from '@cursor-stream/ndjson';
import {
  createForeignLogWindow,
  createTextSniffer,
  hasGzipExtension,
  isStandardOutput,
  SNIFF_PREFIX_BYTES,
  startsLikeGzip,
} from '../logs/index.ts';

/**
 * Files smaller than this are read on one thread. Each worker starts, and compiles the reader's hot code anew (V8
 * shares no optimized code between threads), for about half a second of CPU: on the logs measured, two workers win
 * that back from about 100 MB of short records (real captures) and about 200 MB of the generated profiles. At 32 MiB
 * two jobs took a third longer than one.
 */
export const MIN_SPLIT_BYTES = 128 * 1024 * 1024;

/**
 * The size ranges aim at. Small enough that a worker reading ahead of the one being written finishes its range
 * within the output the main thread holds for it (see `range-scheduler.ts`), large enough that the per-range work
 * (a cut checked, a message or two) is noise.
 */
export const RANGE_BYTES = 4 * 1024 * 1024;

/** How far past its target a cut is looked for; a session longer than this is not cut. */
const CUT_SEARCH_BYTES = 8 * 1024 * 1024;

/** Bytes read from the start to learn the dialect that every range after the first is read with. */
const DIALECT_DETECTION_BYTES = 8 * 1024 * 1024;

const READ_BYTES = 64 * 1024;

/** The starts of session lines a cut may be put before: the CLI's `system/init`, and the Python wrapper's. */
const SESSION_STARTS = ['{"type":"system","subtype":"init"', '{"type":"system:init"'].map((start) =>
  Buffer.from(`\n${start}`),
);

/** A file cut into ranges: range `i` is `[starts[i], starts[i + 1])`, the last one ending at `size`. */
export interface SplitPlan {
  readonly path: string;
  readonly size: number;
  /** Where each range starts: 0, then the proposed cuts, in increasing order. */
  readonly starts: readonly number[];
  /**
   * The dialect every cut must find the stream locked on, and that ranges after the first are read with: the one the
   * user forced, else the one the start of the file is detected as.
   */
  readonly dialect: string;
  /** Whether the file's last byte is a line feed (a last line without one still counts as a line). */
  readonly endsWithLineFeed: boolean;
}

/** How to plan a split. */
export interface SplitOptions {
  readonly jobs: number;
  /** `auto` or the dialect forced. */
  readonly dialect: string;
  readonly maxRecordBytes?: number | undefined;
  /** Files from this size on are split: {@link MIN_SPLIT_BYTES} unless a caller knows better. */
  readonly splitBytes: number;
}

/** The size ranges aim at for a split size: {@link RANGE_BYTES}, less when files are split from a smaller size. */
export function rangeBytesFor(splitBytes: number): number {
  return Math.max(1, Math.min(RANGE_BYTES, Math.floor(splitBytes / 8)));
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  const read = readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

/**
 * Whether the file is a log of lines in plain text: not gzip (read on one thread), not binary (refused on one thread),
 * and not one JSON document of records, whose lines are no records to cut at.
 */
function plainTextLines(fd: number, path: string): boolean {
  if (hasGzipExtension(path)) return false;
  const head = readAt(fd, 0, Math.max(SNIFF_PREFIX_BYTES, DOCUMENT_SNIFF_BYTES + 3));
  return !startsLikeGzip(head) && createTextSniffer().check(head) === null && !startsLikeJsonDocument(head);
}

/**
 * The dialect the stream locks on within its first bytes, as one thread detects it; `undefined` if it does not, or
 * when the log is another agent's from its start (read on one thread, which may leave it out whole).
 */
function detectDialect(fd: number, options: SplitOptions): string | undefined {
  const normalizer = createNormalizer(
    options.maxRecordBytes === undefined ? {} : { maxRecordBytes: options.maxRecordBytes },
  );
  const window = createForeignLogWindow();
  for (let position = 0; position < DIALECT_DETECTION_BYTES; position += READ_BYTES) {
    const chunk = readAt(fd, position, READ_BYTES);
    if (chunk.length === 0) return undefined;
    window.observe(normalizer.feed(chunk));
    // The same first window the one-thread reading decides on: whether the log is another agent's, known once every
    // record that starts in it has been read.
    const atEnd = chunk.length < READ_BYTES;
    if (!atEnd && !window.passed(position + chunk.length - normalizer.bufferedBytes)) continue;
    if (window.fromStart(normalizer.foreign)) return undefined;
    if (options.dialect !== 'auto') return options.dialect;
    if (normalizer.dialect !== undefined) return normalizer.dialect;
  }
  return undefined;
}

const CLOSING_BRACE = 0x7d;
const CARRIAGE_RETURN = 0x0d;

/**
 * Whether the line before the session line whose line feed is at `at` of `window` ends like a record: a cut is
 * accepted only after a whole record (see `range-run.ts`), and a line of the CLI's own output (the error it prints
 * before a run ends) often stands right before the next run's start. Unknown at the window's first byte.
 */
function followsRecordEnd(window: Uint8Array, at: number): boolean {
  if (at === 0) return true;
  const last = window[at - 1] === CARRIAGE_RETURN ? at - 2 : at - 1;
  return last < 0 || window[last] === CLOSING_BRACE;
}

/**
 * How far past the first session line one that follows a record is looked for: a few sessions' worth, so that a log
 * whose every run ends in a line of output costs no more reading than another.
 */
const BETTER_CUT_SEARCH_BYTES = 256 * 1024;

/**
 * The start of the first session line at or after `from` and before `limit` that follows a line ending like a record
 * (looked for up to {@link BETTER_CUT_SEARCH_BYTES} past the first session line), else of the first session line, or
 * -1.
 */
export function findSessionStart(fd: number, from: number, limit: number): number {
  const overlap = Math.max(...SESSION_STARTS.map((start) => start.length)) - 1;
  let fallback = -1;
  // The line feed before a session line at `from` itself is at `from - 1`.
  for (let position = from - 1; position < limit; position += READ_BYTES) {
    if (fallback !== -1 && position > fallback + BETTER_CUT_SEARCH_BYTES) break;
    const window = readAt(fd, position, READ_BYTES + overlap);
    const last = window.length < READ_BYTES + overlap;
    // A session line starting in the overlap is the next window's, unless this window is the last.
    for (const at of sessionLineFeeds(window, last ? window.length : READ_BYTES)) {
      const start = position + at + 1;
      if (start >= limit) break;
      if (followsRecordEnd(window, at)) return start;
      if (fallback === -1) fallback = start;
    }
    if (last) break;
  }
  return fallback;
}

/** Where the line feeds before session lines are in `window`, before `end`, in order. */
function sessionLineFeeds(window: Buffer, end: number): number[] {
  const found: number[] = [];
  for (const start of SESSION_STARTS) {
    for (let at = window.indexOf(start); at !== -1 && at < end; at = window.indexOf(start, at + 1))
      found.push(at);
  }
  return found.sort((a, b) => a - b);
}

/** Proposed cuts: the first session start after each target, targets `rangeBytes` past the previous cut. */
function proposeCuts(fd: number, size: number, rangeBytes: number): number[] {
  const starts = [0];
  for (let from = rangeBytes; from < size; ) {
    const cut = findSessionStart(fd, from, Math.min(size, from + CUT_SEARCH_BYTES));
    if (cut === -1) from += CUT_SEARCH_BYTES;
    else {
      starts.push(cut);
      from = cut + rangeBytes;
    }
  }
  return starts;
}

function planOpened(fd: number, path: string, options: SplitOptions): SplitPlan | null {
  const stats = fstatSync(fd);
  // This process's own output is refused by the one thread's reader.
  if (!stats.isFile() || isStandardOutput(stats)) return null;
  if (stats.size < options.splitBytes || !plainTextLines(fd, path)) return null;
  const dialect = detectDialect(fd, options);
  if (dialect === undefined) return null;
  const starts = proposeCuts(fd, stats.size, rangeBytesFor(options.splitBytes));
  if (starts.length < 2) return null;
  const endsWithLineFeed = readAt(fd, stats.size - 1, 1)[0] === 0x0a;
  return { path, size: stats.size, starts, dialect, endsWithLineFeed };
}

/**
 * Plans how to read a log file in ranges, or returns `null` when it is read on one thread: standard input, a pipe,
 * a gzip file, a file smaller than the split size, one that is not text, one whose dialect its start does not
 * show, one without session starts to cut at, or one that cannot be opened (one thread then reports why).
 */
export function planSplit(path: string, options: SplitOptions): SplitPlan | null {
  if (path === '-' || options.jobs < 2) return null;
  let fd: number;
  try {
    // Only a regular file is opened here: opening a named pipe would wait for its writer, and take its data.
    const stats = statSync(path);
    // A file below the split size, as most logs are, is not opened at all.
    if (!stats.isFile() || stats.size < options.splitBytes) return null;
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    return planOpened(fd, path, options);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
