/** Tailing a growing file, like `tail -F`: read to the end, then wait for more until told to stop. */

import { type FileHandle, open, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { READ_CHUNK_BYTES } from './chunk-size.ts';

/** How often to look for new bytes once the end is reached. */
const POLL_INTERVAL_MS = 200;

/** The most of an unfinished last line held back; a longer one is passed on as it grows. */
const MAX_HELD_BYTES = 1024 * 1024;

/**
 * Reads a file from its start, then polls for appended bytes, until `signal` aborts. Polling rather than `fs.watch`
 * because watch events are unreliable on network and container file systems, and a poll costs one `read` call and
 * one `fstat`. The file is read by position; when it is shorter than what was read (truncated, as a log rotated with
 * `copytruncate` or rewritten with `>` is), `onTruncated` is told and the file is read again from its start, as
 * `tail -F` does. A line left unfinished by the cut is passed on and ended there, so that it is reported as the cut
 * record it is rather than dropped or joined to the first line of the new content.
 *
 * Given the file's `path` (`byName`), the name is followed too, as `tail -F` follows it: once the open file is read to
 * its end and the name leads to another file (a log rotated by renaming, a file replaced by an atomic rename),
 * `onReplaced` is told and the new file is read from its start. A name that leads nowhere for now (between a rename
 * and the new file's creation) is looked at again at the next poll.
 *
 * Only whole lines are passed on: the unfinished last line is held until its line feed arrives, so that stopping
 * while the writer is in the middle of a record does not report that record as truncated.
 */
export async function* followFile(
  handle: FileHandle,
  signal: AbortSignal,
  onTruncated?: () => void,
  byName?: { readonly path: string; readonly onReplaced?: () => void },
): AsyncGenerator<Uint8Array> {
  // The file read now: `handle`, or the file its name led to since, which is this reader's to close.
  let current = handle;
  let position = 0;
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  // Whether the last chunk passed on ended inside a line (one longer than MAX_HELD_BYTES).
  let inLine = false;
  try {
    while (!signal.aborted) {
      // A fresh buffer per read: the consumer may still hold the previous chunk.
      const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      const { bytesRead } = await current.read(buffer, 0, READ_CHUNK_BYTES, position);
      if (bytesRead === 0) {
        const stats = await current.stat();
        const replacement = stats.size < position ? undefined : await replacedBy(byName?.path, stats);
        if (stats.size < position || replacement !== undefined) {
          // The line the cut left unfinished goes on, ended: it reads as the cut record it is, of the file before.
          yield* held;
          if (heldBytes > 0 || inLine) yield Buffer.from('\n');
          held = [];
          heldBytes = 0;
          inLine = false;
          // Told once that file's bytes are all passed on: what is read next is another file's, from its line 1.
          if (replacement === undefined) onTruncated?.();
          else {
            byName?.onReplaced?.();
            if (current !== handle) await current.close();
            current = replacement;
          }
          position = 0;
          continue;
        }
        await sleep(POLL_INTERVAL_MS, undefined, { signal }).catch(() => undefined);
        continue;
      }
      position += bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      const lastLineFeed = chunk.lastIndexOf(0x0a);
      if (lastLineFeed === -1 && heldBytes + bytesRead <= MAX_HELD_BYTES) {
        held.push(chunk);
        heldBytes += bytesRead;
        continue;
      }
      // The tokenizer takes any chunking, so the held pieces go on as they are, never joined.
      yield* held;
      held = [];
      heldBytes = 0;
      if (lastLineFeed === -1 || lastLineFeed === chunk.length - 1) {
        inLine = lastLineFeed === -1;
        yield chunk;
        continue;
      }
      inLine = false;
      yield chunk.subarray(0, lastLineFeed + 1);
      held = [chunk.subarray(lastLineFeed + 1)];
      heldBytes = chunk.length - lastLineFeed - 1;
    }
  } finally {
    if (current !== handle) await current.close();
  }
}

/**
 * The file `path` leads to, opened, when it is another regular file than the one read (`read`); `undefined` when it
 * is the same, leads nowhere for now, or cannot be opened.
 */
async function replacedBy(
  path: string | undefined,
  read: { dev: number; ino: number },
): Promise<FileHandle | undefined> {
  if (path === undefined) return undefined;
  try {
    const named = await stat(path);
    if (!named.isFile() || (named.dev === read.dev && named.ino === read.ino)) return undefined;
    const opened = await open(path, 'r');
    const stats = await opened.stat();
    if (stats.isFile()) return opened;
    await opened.close();
  } catch {
    // Between a rename and the new file's creation: looked at again at the next poll.
  }
  return undefined;
}
