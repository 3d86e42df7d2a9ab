import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { ParseInput } from './approaches/approach.ts';

/** How the file is cut into chunks: 64 KiB reads, or 1 to 7 bytes at a time so characters split across chunks. */
export type Chunking = 'file' | 'odd';

/** The read size of timed runs. */
export const READ_CHUNK_BYTES = 65536;
/** Chunk sizes of the split-UTF-8 check, cycled: every offset inside a multi-byte character gets cut. */
const ODD_CHUNK_SIZES = [1, 2, 3, 4, 5, 6, 7] as const;

/** An input over `file` in the given chunking. */
export function inputOf(file: string, chunking: Chunking): ParseInput {
  if (chunking === 'file') {
    return { file, open: () => createReadStream(file, { highWaterMark: READ_CHUNK_BYTES }) };
  }
  return { file, open: () => Readable.from(oddChunks(readFileSync(file))) };
}

function* oddChunks(bytes: Buffer): Generator<Buffer> {
  let offset = 0;
  for (let i = 0; offset < bytes.length; i++) {
    const size = ODD_CHUNK_SIZES[i % ODD_CHUNK_SIZES.length] ?? 1;
    yield bytes.subarray(offset, offset + size);
    offset += size;
  }
}
