/**
 * Every timed run finds its input in the page cache, as a log just written or just read is. Machines that reclaim
 * memory ahead of need (Linux's DAMON `pageout` scheme, as some virtual machines run it) write out the pages of files
 * left untouched for a minute or so, however much memory is free: 100 MB read a moment ago was a third gone half a
 * minute later, and a 1 GB file left alone came back from the disk, at a second and a half of system time. The wait
 * for a quiet machine before each run (see `settle.ts`) can last that long. Unread, a run would time the disk for a
 * share of its input that depends on how long it waited, and the rows compared would not read alike.
 */

import { closeSync, lstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Bytes read at a time. */
const READ_BYTES = 1024 * 1024;

/**
 * Reads `path` through once, a file or every file in a folder and the folders in it (links to folders not followed),
 * so that the next run reads it from memory; gives the bytes read. A file that cannot be read is passed over: the
 * timed run says what is wrong.
 */
export function readThrough(path: string): number {
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  const read = (file: string): number => {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return 0;
    }
    let total = 0;
    try {
      for (let got = readSync(fd, buffer, 0, READ_BYTES, null); got > 0; ) {
        total += got;
        got = readSync(fd, buffer, 0, READ_BYTES, null);
      }
    } catch {
      // A read error is the timed run's to report.
    } finally {
      closeSync(fd);
    }
    return total;
  };
  const walk = (current: string): number => {
    let kind: 'file' | 'folder' | 'other';
    try {
      // A link is read when it leads to a file, and not followed to a folder, as the commands walk folders.
      const entry = lstatSync(current);
      const target = entry.isSymbolicLink() ? statSync(current) : entry;
      kind = target.isFile() ? 'file' : entry.isDirectory() ? 'folder' : 'other';
    } catch {
      return 0;
    }
    if (kind === 'file') return read(current);
    if (kind === 'other') return 0;
    let names: string[];
    try {
      names = readdirSync(current);
    } catch {
      return 0;
    }
    let total = 0;
    for (const name of names) total += walk(join(current, name));
    return total;
  };
  return walk(path);
}
