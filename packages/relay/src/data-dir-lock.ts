/**
 * One relay per data folder. A relay marks the runs it finds `running` as `interrupted` and removes unfinished
 * journals as it starts: a second relay on the folder of one that runs would do that to live runs, and the two would
 * write over each other's records. The lock is a file naming the holder's process; a holder that is gone (a relay
 * killed) leaves a lock the next relay takes over.
 */

import { closeSync, openSync, readFileSync, realpathSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The lock's file in the data folder. */
const LOCK_FILE = 'relay.lock';

/** Folders a relay of this process holds: a lock naming this process is held only if it is one of them. */
const heldHere = new Set<string>();

/** A data folder's lock: held (`release` gives it back), or held by another relay's process. */
export type DataDirLock = { ok: true; release(): void } | { ok: false; pid: number };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // The process exists but is another user's.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** Creates the lock file naming this process; `false` when one is there. */
function create(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the lock of `dataDir` (a folder that exists). A lock whose process is gone, or that names this process though
 * no relay of it holds the folder (a container's relay is often the same pid after a restart), is taken over.
 *
 * @throws The file system's error when the folder cannot hold the lock (read-only, permission denied).
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const folder = realpathSync(dataDir);
  const path = join(folder, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    if (create(path)) {
      heldHere.add(folder);
      let released = false;
      return {
        ok: true,
        release() {
          if (released) return;
          released = true;
          heldHere.delete(folder);
          try {
            unlinkSync(path);
          } catch {
            // Gone already: nothing holds the folder.
          }
        },
      };
    }
    let pid = Number.NaN;
    try {
      pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    } catch {
      // Removed meanwhile, or unreadable: taken over below as a lock no process holds.
    }
    const held = Number.isSafeInteger(pid) && pid > 0 && isAlive(pid);
    if (held && (pid !== process.pid || heldHere.has(folder))) return { ok: false, pid };
    try {
      unlinkSync(path);
    } catch {
      // Another relay took it over first: the next attempt says whose it is.
    }
  }
  return { ok: false, pid: Number.NaN };
}
