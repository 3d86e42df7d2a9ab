/** Counting the line feeds of a span of a file, to number the lines of the ranges after it. */

import { readSync } from 'node:fs';

const LF = 0x0a;
const READ_BYTES = 1024 * 1024;

/**
 * One read buffer for every span a thread counts, made on first use. A buffer of its own for each span (a worker
 * counts a hundred 4 MB ranges of a 1 GB file) is a fresh megabyte the kernel maps and zeroes at each read into it,
 * and external memory the collector runs for: it made counting five times slower than the reading it does.
 */
let scratch: Buffer | undefined;

/**
 * The line feeds in bytes `[from, to)` of an open file. A line feed byte is never part of a multi-byte UTF-8
 * sequence, so counting bytes counts lines exactly as the tokenizer numbers them.
 *
 * @throws Error when the file is shorter than `to` (it changed since it was planned).
 */
export function countLineFeeds(fd: number, from: number, to: number): number {
  scratch ??= Buffer.allocUnsafe(READ_BYTES);
  const buffer = scratch;
  let count = 0;
  for (let position = from; position < to; ) {
    const read = readSync(fd, buffer, 0, Math.min(buffer.length, to - position), position);
    if (read === 0)
      throw new Error(`the file ended at byte ${position}, before ${to}: it changed while read`);
    const bytes = buffer.subarray(0, read);
    for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) count += 1;
    position += read;
  }
  return count;
}
