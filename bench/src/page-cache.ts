/**
 * Every timed run finds its input in the page cache, as a log just written or just read is. Machines that reclaim
 * memory ahead of need (Linux's DAMON `pageout` scheme, as some virtual machines run it) write out the pages of files
 * left untouched for a minute or so, however much memory is free: on the machine the benchmark was run on, a 95 MB
 * input read a few minutes before held 54 MB in memory, and a 1 GB one left alone 72 KB, which took a second and a
 * half of system time to read back. The wait for a quiet machine before each run (see `settle.ts`) can last that
 * long. Unread, a run would time the disk for a share of its input that depends on how long it waited, and the rows
 * compared would not read alike.
 */

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { filesOf } from './inputs.ts';

/** Bytes read at a time. */
const READ_BYTES = 1024 * 1024;

/**
 * Without waiting: a named pipe among a folder's files would hold a blocking open until it had a writer. Only regular
 * files are read.
 */
const OPEN_WITHOUT_WAITING = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads what a run reads (`path`, or the files of the folder it names: see {@link filesOf}) through once, so that
 * the run reads it from memory; gives the bytes read. What cannot be read is passed over: the run says what is wrong.
 */
export function readThrough(path: string): number {
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  let files: string[];
  try {
    files = filesOf(path);
  } catch {
    return 0;
  }
  let total = 0;
  for (const file of files) {
    let fd: number;
    try {
      fd = openSync(file, OPEN_WITHOUT_WAITING);
    } catch {
      continue;
    }
    try {
      if (!fstatSync(fd).isFile()) continue;
      for (let got = readSync(fd, buffer, 0, READ_BYTES, null); got > 0; ) {
        total += got;
        got = readSync(fd, buffer, 0, READ_BYTES, null);
      }
    } catch {
      // A read error is the run's to report.
    } finally {
      closeSync(fd);
    }
  }
  return total;
}
