/**
 * Gzip decompression that behaves like `gzip -dc`: every member is decoded and delivered, and what follows the last
 * member (trailing garbage, a cut member, a bad checksum) is reported with its byte offset after everything decoded
 * before it, instead of failing the whole input. zlib's own gunzip stream reports trailing bytes as an error that
 * discards the output of the write it came with: for a small file, every event.
 */

import type { InflateRaw } from 'node:zlib';

/** What went wrong after the decodable part of a gzip input. */
export interface GzipTrailingProblem {
  /** Byte offset in the compressed input where the problem starts. */
  offset: number;
  /** One phrase, lower-case, e.g. `9 bytes after the gzip data are not gzip`. */
  message: string;
}

/** A zlib-style error for an input that is not gzip from its first byte. */
function gzipError(code: 'Z_DATA_ERROR' | 'Z_BUF_ERROR'): Error {
  return Object.assign(new Error(code === 'Z_DATA_ERROR' ? 'not gzip' : 'gzip data ends early'), { code });
}

const FLAG_HCRC = 0x02;
const FLAG_EXTRA = 0x04;
const FLAG_NAME = 0x08;
const FLAG_COMMENT = 0x10;
const TRAILER_BYTES = 8;
/**
 * Compressed bytes written to zlib at a time. Its output for one write is held until the reader takes it, and log
 * text compresses 20 to 50 times: a 64 KiB read would decode to megabytes at once.
 */
const WRITE_BYTES = 4096;

/**
 * The length of the member header at the start of `bytes`: a number, `'incomplete'` when more bytes are needed, or
 * `'not-gzip'` when they do not start a gzip member (RFC 1952, section 2.3).
 */
function headerLength(bytes: Uint8Array): number | 'incomplete' | 'not-gzip' {
  if (bytes.length >= 1 && bytes[0] !== 0x1f) return 'not-gzip';
  if (bytes.length >= 2 && bytes[1] !== 0x8b) return 'not-gzip';
  if (bytes.length >= 3 && bytes[2] !== 0x08) return 'not-gzip';
  if (bytes.length < 10) return 'incomplete';
  const flags = bytes[3] ?? 0;
  let at = 10;
  if (flags & FLAG_EXTRA) {
    if (bytes.length < at + 2) return 'incomplete';
    at += 2 + ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8));
  }
  for (const flag of [FLAG_NAME, FLAG_COMMENT]) {
    if (!(flags & flag)) continue;
    const end = bytes.indexOf(0, at);
    if (end === -1) return 'incomplete';
    at = end + 1;
  }
  if (flags & FLAG_HCRC) at += 2;
  return bytes.length < at ? 'incomplete' : at;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

function readUint32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] ?? 0) |
      ((bytes[at + 1] ?? 0) << 8) |
      ((bytes[at + 2] ?? 0) << 16) |
      ((bytes[at + 3] ?? 0) << 24)) >>>
    0
  );
}

/**
 * Writes a chunk to the inflater and waits until it has taken what it will of it, or until it fails: zlib never calls
 * back the write that met corrupt data, so waiting for the callback alone would wait forever, and a process with
 * nothing else to do would end there, silently, with the exit code of an unsettled top-level await.
 */
function write(inflater: InflateRaw, chunk: Uint8Array, failure: Promise<never>): Promise<void> {
  const written = new Promise<void>((resolve, reject) =>
    inflater.write(chunk, (error) => (error ? reject(error) : resolve())),
  );
  return Promise.race([written, failure]);
}

/**
 * An inflater whose output is collected, a promise of its end (which comes at the end of its deflate data), and one
 * that rejects when it fails.
 */
function openInflater(createInflateRaw: () => InflateRaw) {
  const inflater = createInflateRaw();
  const output: Uint8Array[] = [];
  inflater.on('data', (chunk: Uint8Array) => output.push(chunk));
  const failure = new Promise<never>((_, reject) => inflater.once('error', reject));
  const done = Promise.race([new Promise<void>((resolve) => inflater.once('end', resolve)), failure]);
  // The error also reaches the write or the end that met it; this keeps it from being unhandled meanwhile.
  failure.catch(() => undefined);
  done.catch(() => undefined);
  return { inflater, output, done, failure };
}

/**
 * Decompresses a gzip input of one or more members. An input that is not gzip, or ends inside its first header,
 * throws a zlib-style error (`code` `Z_DATA_ERROR` or `Z_BUF_ERROR`) before anything is delivered; any later
 * problem is handed to `onProblem` once everything decoded before it has been delivered.
 */
export async function* gunzipMembers(
  source: AsyncIterable<Uint8Array>,
  onProblem: (problem: GzipTrailingProblem) => void,
): AsyncGenerator<Uint8Array> {
  // Loaded on the first gzip input, not with every command.
  const { createInflateRaw, crc32 } = process.getBuiltinModule('node:zlib');
  const input = source[Symbol.asyncIterator]();
  let pending: Uint8Array = new Uint8Array(0);
  // Compressed offset of pending[0].
  let offset = 0;
  let exhausted = false;
  let members = 0;

  async function more(): Promise<boolean> {
    if (exhausted) return false;
    const next = await input.next();
    if (next.done) {
      exhausted = true;
      return false;
    }
    pending = concat(pending, next.value);
    return true;
  }

  async function trailingGarbage(): Promise<void> {
    let bytes = pending.length;
    pending = new Uint8Array(0);
    while (await more()) {
      bytes += pending.length;
      pending = new Uint8Array(0);
    }
    onProblem({
      offset,
      message: `${bytes} bytes after the gzip data are not gzip (ignored, as gzip -dc does)`,
    });
  }

  try {
    for (;;) {
      if (pending.length === 0 && !(await more())) return;
      let header = headerLength(pending);
      while (header === 'incomplete' && (await more())) header = headerLength(pending);
      if (header === 'not-gzip' || header === 'incomplete') {
        if (members === 0) throw gzipError(header === 'not-gzip' ? 'Z_DATA_ERROR' : 'Z_BUF_ERROR');
        await trailingGarbage();
        return;
      }
      offset += header;
      pending = pending.subarray(header);
      // One member's deflate data: fed chunk by chunk, its output delivered after each.
      const { inflater, output, done, failure } = openInflater(createInflateRaw);
      let written = 0;
      let crc = 0;
      let size = 0;
      const deliver = function* (): Generator<Uint8Array> {
        for (const chunk of output.splice(0)) {
          crc = crc32(chunk, crc);
          size += chunk.length;
          yield chunk;
        }
      };
      try {
        for (;;) {
          if (pending.length > 0) {
            const slice = pending.subarray(0, WRITE_BYTES);
            written += slice.length;
            await write(inflater, slice, failure);
            yield* deliver();
            const unread = written - inflater.bytesWritten;
            if (unread > 0) {
              // The member's data ended inside this slice; the rest is its trailer and what follows.
              pending = pending.subarray(slice.length - unread);
              break;
            }
            pending = pending.subarray(slice.length);
            if (pending.length > 0) continue;
          }
          if (!(await more())) break;
        }
        inflater.end();
        await done;
        yield* deliver();
      } catch (error) {
        yield* deliver();
        // Nothing decoded at all: the input is not gzip, as an error before any output.
        if (members === 0 && size === 0) throw error;
        const cut = (error as { code?: unknown }).code === 'Z_BUF_ERROR';
        onProblem({
          offset: offset + inflater.bytesWritten,
          message: cut ? 'the gzip data ends early' : 'the gzip data is corrupt from here on',
        });
        return;
      }
      offset += inflater.bytesWritten;
      while (pending.length < TRAILER_BYTES && (await more())) {}
      if (pending.length < TRAILER_BYTES) {
        onProblem({ offset, message: 'the gzip data ends early (its last member has no trailer)' });
        return;
      }
      if (readUint32(pending, 0) !== crc >>> 0 || readUint32(pending, 4) !== size % 2 ** 32) {
        onProblem({ offset, message: 'the checksum of the gzip data does not match what it decodes to' });
      }
      offset += TRAILER_BYTES;
      pending = pending.subarray(TRAILER_BYTES);
      members += 1;
    }
  } finally {
    await input.return?.();
  }
}
