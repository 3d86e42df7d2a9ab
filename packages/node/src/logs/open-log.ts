/** Opening a log: a file or standard input, read in chunks so that memory never depends on the file's size. */

import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { READ_CHUNK_BYTES } from './chunk-size.ts';
import { followFile } from './follow-file.ts';
import { ioError, type LogResult, logError } from './log-error.ts';

/** An opened log, not yet read. */
export interface LogSource {
  /** The path as given; `-` is standard input. */
  readonly path: string;
  /** Bytes on disk (compressed bytes for a gzip file), when the input is a regular file. */
  readonly size: number | undefined;
  /**
   * The raw bytes, in order. A chunk may be overwritten by the read that makes the next one: a consumer that keeps
   * bytes past asking for the next chunk copies them.
   */
  readonly chunks: AsyncIterable<Uint8Array>;
  /**
   * For a regular file: its next chunk, read synchronously (`null` at its end), the same bytes `chunks` gives, without
   * a promise per chunk. A reader that takes them so gives the event loop a turn now and then itself (see
   * {@link READS_PER_TURN}), and reads a source one way only. Absent for other inputs. May throw an I/O error.
   */
  readonly readChunkSync?: () => Uint8Array | null;
  /** Releases the file; safe to call more than once, and after the chunks ran out. */
  close(): Promise<void>;
}

/** How to open a log. */
export interface OpenLogOptions {
  /** Standard input, read when the path is `-`: `process.stdin` by default. */
  readonly stdin?: AsyncIterable<Uint8Array | string>;
  /** Keep reading as the file grows, until this signal aborts (`render --follow`). */
  readonly follow?: AbortSignal;
  /** While following: the file became shorter than what was read, and is read again from its start. */
  readonly onTruncated?: () => void;
  /** While following: the name now leads to another file (rotated, replaced), which is read from its start. */
  readonly onReplaced?: () => void;
  /**
   * The path was a regular file when listed (`expandLogPaths` says so): it is opened without a stat first. The stat
   * keeps a named pipe from being opened and closed again, which would cost a writer waiting on it its reader.
   */
  readonly regularFile?: boolean;
}

async function* bytesOf(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

/** What standard input is: its size when it is a file, that it is a directory (`< dir`), or this process's output. */
function stdinKind(): { size: number | undefined; directory: boolean; output: boolean } {
  try {
    const stats = fstatSync(0);
    const size = stats.isFile() ? stats.size : undefined;
    return { size, directory: stats.isDirectory(), output: isStandardOutput(stats) };
  } catch {
    return { size: undefined, directory: false, output: false };
  }
}

/** The regular file this process's standard output is written to, as `fstat` names it; `null` when it is none. */
let standardOutputFile: { dev: number; ino: number } | null | undefined;

/**
 * Whether a file is the one this process's standard output writes to (`render logs/ > logs/all.log`, `normalize
 * run.ndjson >> run.ndjson`). Such a log is never read: each line read there would become more output to read, and
 * the command would run until the disk is full.
 */
export function isStandardOutput(stats: { dev: number; ino: number; isFile(): boolean }): boolean {
  if (standardOutputFile === undefined) {
    try {
      const output = fstatSync(1);
      standardOutputFile = output.isFile() ? { dev: output.dev, ino: output.ino } : null;
    } catch {
      standardOutputFile = null;
    }
  }
  return (
    standardOutputFile !== null &&
    stats.isFile() &&
    stats.dev === standardOutputFile.dev &&
    stats.ino === standardOutputFile.ino
  );
}

/** The error for a log that is this process's own output (see {@link isStandardOutput}). */
function ownOutput(path: string): LogResult<LogSource> {
  const message = "is where this command's standard output goes: reading it would read its own output";
  return { ok: false, error: logError('usage', message, path) };
}

/** Reads between two turns of the event loop while reading a file synchronously: 1 MiB. */
export const READS_PER_TURN = 16;

/**
 * Read buffers of files read to their end or closed, for the next files to read into: a folder of small logs would
 * otherwise leave the collector a 64 KiB buffer outside its heap per log, which it lets pile up for megabytes before
 * it frees any. A few, for logs read side by side; more are made when needed.
 */
const freeBuffers: Buffer[] = [];
const MAX_FREE_BUFFERS = 4;

/** A regular file read synchronously, chunk by chunk, from its start into one buffer. */
interface FileReader {
  /** The next chunk (a view of the buffer, valid until the next call), or `null` at the end or once closed. */
  next(): Uint8Array | null;
  /** Stops reading and gives the buffer back; safe to call more than once. */
  release(): void;
}

/**
 * A regular file's bytes by synchronous reads: from the page cache, where logs usually are, this is cheaper than a
 * read stream, which pays a thread-pool round trip and stream bookkeeping per chunk. Every read goes into the same
 * buffer, one of {@link freeBuffers} when there is one. A read shorter than asked that reaches the size the file had
 * when opened is its end: a small log takes one read, not a second one that finds nothing.
 */
function createFileReader(fd: number, size: number): FileReader {
  let buffer: Buffer | undefined = freeBuffers.pop() ?? Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let position = 0;
  let atEnd = false;
  function release(): void {
    // Once released, the descriptor's number may already belong to another file: never read it again.
    if (buffer !== undefined && freeBuffers.length < MAX_FREE_BUFFERS) freeBuffers.push(buffer);
    buffer = undefined;
  }
  return {
    next() {
      // The last chunk was valid until now: only now may the buffer go to another file.
      if (atEnd) release();
      if (buffer === undefined) return null;
      const bytesRead = readSync(fd, buffer, 0, READ_CHUNK_BYTES, position);
      if (bytesRead === 0) {
        release();
        return null;
      }
      position += bytesRead;
      atEnd = bytesRead < READ_CHUNK_BYTES && position >= size;
      return buffer.subarray(0, bytesRead);
    },
    release,
  };
}

/**
 * A file reader's chunks as an async iterable, the event loop given a turn every {@link READS_PER_TURN} reads, so
 * that timers and signals are never held up long.
 */
async function* syncReads(reader: FileReader): AsyncGenerator<Uint8Array> {
  for (let reads = 0; ; reads++) {
    if (reads % READS_PER_TURN === READS_PER_TURN - 1) await nextTurn();
    const chunk = reader.next();
    if (chunk === null) return;
    yield chunk;
  }
}

/** A regular file's source, read synchronously; `closeFile` closes it once. */
function regularFileSource(
  path: string,
  fd: number,
  size: number,
  closeFile: () => void | Promise<void>,
): LogSource {
  return new RegularFileSource(path, size, createFileReader(fd, size), closeFile);
}

/**
 * A class, so that the `chunks` getter lives on one shared prototype: a getter in an object literal gives every
 * source a hidden class of its own, which V8 keeps, with all its closures reach, until a full collection.
 */
class RegularFileSource implements LogSource {
  readonly path: string;
  readonly size: number;
  readonly readChunkSync: () => Uint8Array | null;
  readonly #reader: FileReader;
  readonly #closeFile: () => void | Promise<void>;
  #chunks: AsyncIterable<Uint8Array> | undefined;
  #closed = false;

  constructor(path: string, size: number, reader: FileReader, closeFile: () => void | Promise<void>) {
    this.path = path;
    this.size = size;
    this.#reader = reader;
    this.readChunkSync = reader.next;
    this.#closeFile = closeFile;
  }

  /** Made on first use: a reader that takes chunks synchronously never needs it. */
  get chunks(): AsyncIterable<Uint8Array> {
    this.#chunks ??= syncReads(this.#reader);
    return this.#chunks;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#reader.release();
    await this.#closeFile();
  }
}

function fileSource(
  path: string,
  handle: FileHandle,
  size: number,
  regular: boolean,
  options: OpenLogOptions,
): LogSource {
  if (options.follow !== undefined) {
    const byName = options.onReplaced === undefined ? { path } : { path, onReplaced: options.onReplaced };
    const chunks = followFile(handle, options.follow, options.onTruncated, byName);
    return { path, size, chunks, close: () => handle.close() };
  }
  if (regular) return regularFileSource(path, handle.fd, size, () => handle.close());
  // A pipe or a device named by path (`<(cmd)`, `/dev/fd/N`) may block a synchronous read: stream it instead.
  const stream = handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES });
  return {
    path,
    size,
    chunks: stream,
    close: async () => {
      stream.destroy();
    },
  };
}

/**
 * Without blocking: a named pipe without a writer would hold a blocking open. The flag changes nothing for the
 * reads of a regular file, the only kind opened so.
 */
const OPEN_WITHOUT_WAITING = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * A regular file opened and read synchronously, from open to close: most logs are small, and for them the
 * thread-pool round trips of an asynchronous open, stat and close cost more than reading them. `undefined` for
 * anything else (a directory, a pipe, a device, a path that cannot be opened), which the asynchronous way opens and
 * reports on.
 */
function openRegularFile(path: string, listedAsFile: boolean): LogResult<LogSource> | undefined {
  let fd: number;
  try {
    // A stat per log is a tenth of what a small log costs: not repeated for a path just listed as a regular file.
    if (!listedAsFile && !statSync(path).isFile()) return undefined;
    fd = openSync(path, OPEN_WITHOUT_WAITING);
  } catch {
    return undefined;
  }
  let size: number;
  try {
    // The path may have been replaced between the stat and the open.
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Error('not a regular file');
    if (isStandardOutput(stats)) {
      closeSync(fd);
      return ownOutput(path);
    }
    size = stats.size;
  } catch {
    closeSync(fd);
    return undefined;
  }
  return { ok: true, value: regularFileSource(path, fd, size, () => closeSync(fd)) };
}

/**
 * Opens a log for reading. Fails, as a value, when the file is missing, unreadable or a directory.
 *
 * @param path - A file path, or `-` for standard input.
 */
export async function openLog(path: string, options: OpenLogOptions = {}): Promise<LogResult<LogSource>> {
  if (path === '-') {
    const { size, directory, output } = stdinKind();
    if (directory)
      return { ok: false, error: logError('is-a-directory', 'is a directory, not a log file', path) };
    if (output) return ownOutput(path);
    const source: LogSource = {
      path,
      size,
      chunks: bytesOf(options.stdin ?? process.stdin),
      close: async () => {},
    };
    return { ok: true, value: source };
  }
  const regular =
    options.follow === undefined ? openRegularFile(path, options.regularFile === true) : undefined;
  if (regular !== undefined) return regular;
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    return { ok: false, error: ioError(path, error) };
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) {
      await handle.close();
      return { ok: false, error: logError('is-a-directory', 'is a directory, not a log file', path) };
    }
    if (isStandardOutput(stats)) {
      await handle.close();
      return ownOutput(path);
    }
    if (options.follow !== undefined && !stats.isFile()) {
      // Following reads at offsets as the file grows, which a pipe or a device cannot do.
      await handle.close();
      return {
        ok: false,
        error: logError('usage', 'cannot follow: not a regular file (pipe it without --follow)', path),
      };
    }
    return { ok: true, value: fileSource(path, handle, stats.size, stats.isFile(), options) };
  } catch (error) {
    await handle.close();
    return { ok: false, error: ioError(path, error) };
  }
}
