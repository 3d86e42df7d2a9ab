import {
  closeSync,
  createReadStream,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ParseInput } from './approaches/approach.ts';

/** How the file is cut into chunks: 64 KiB reads, or 1 to 7 bytes at a time so characters split across chunks. */
export type Chunking = 'file' | 'odd';

/** The read size of timed runs. */
export const READ_CHUNK_BYTES = 65536;
/** Chunk sizes of the split-UTF-8 check, cycled: every offset inside a multi-byte character gets cut. */
const ODD_CHUNK_SIZES = [1, 2, 3, 4, 5, 6, 7] as const;

/**
 * How a row reads the file: all through read streams, as the library rows compare NDJSON loops and libraries on one
 * footing; or, for the command rows, the way a plain loop over files reads them, which the CLI's commands also do.
 */
export type Reading = 'stream' | 'sync';

/** What a run reads: `path` itself, or the files of the folder it names, in name order. */
export function filesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .map((name) => join(path, name));
}

/** An input over `file` in the given chunking and reading. */
export function inputOf(file: string, chunking: Chunking, reading: Reading = 'stream'): ParseInput {
  const open =
    chunking === 'file'
      ? () => createReadStream(file, { highWaterMark: READ_CHUNK_BYTES })
      : () => Readable.from(oddChunks(readFileSync(file)));
  if (reading === 'stream') return { file, open };
  const readSync = chunking === 'file' ? () => fileChunks(file) : () => oddChunks(readFileSync(file));
  return { file, open, readSync };
}

/**
 * The file read in {@link READ_CHUNK_BYTES} reads, one after another on this thread: no stream, no event loop turn
 * per read, which for a folder of small logs is most of what a loop over them costs. The chunks share one buffer.
 */
function* fileChunks(file: string): Generator<Uint8Array> {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    for (;;) {
      const read = readSync(fd, buffer, 0, READ_CHUNK_BYTES, null);
      if (read === 0) return;
      yield buffer.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}

function* oddChunks(bytes: Buffer): Generator<Buffer> {
  let offset = 0;
  for (let i = 0; offset < bytes.length; i++) {
    const size = ODD_CHUNK_SIZES[i % ODD_CHUNK_SIZES.length] ?? 1;
    yield bytes.subarray(offset, offset + size);
    offset += size;
  }
}
