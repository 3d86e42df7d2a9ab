/**
 * Folders made as `mkdir -p` makes them, without Node's recursive `mkdirSync`: on a file system that answers ENOENT
 * for a folder whose parent is there (procfs, sysfs), that one retries forever, and a cache or data folder set there by
 * mistake would hang the process instead of failing. Loads nothing else of the package.
 */

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** The most missing folders above `dir` that {@link makeDirectories} makes; a deeper path is no folder anyone meant. */
export const MAX_PARENTS_MADE = 64;

/**
 * Makes `dir` and the missing folders above it, one at a time, each with `mode`. A folder that is there already is no
 * error; anything else the file system says (ENOENT where a folder cannot be made, EACCES, ENOTDIR) is thrown, as
 * `mkdirSync` throws it.
 */
export function makeDirectories(dir: string, mode = 0o777): void {
  makeWithParents(dir, mode, MAX_PARENTS_MADE);
}

function makeWithParents(dir: string, mode: number, parentsLeft: number): void {
  try {
    mkdirSync(dir, { mode });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST') return;
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir || parentsLeft === 0) throw error;
    makeWithParents(parent, mode, parentsLeft - 1);
    mkdirSync(dir, { mode });
  }
}
