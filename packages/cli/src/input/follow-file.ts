/** Tailing a growing file, like `tail -f`: read to the end, then wait for more until told to stop. */

import type { FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { READ_CHUNK_BYTES } from './chunk-size.ts';

/** How often to look for new bytes once the end is reached. */
const POLL_INTERVAL_MS = 200;

/**
 * Reads a file from its start, then polls for appended bytes, until `signal` aborts. Polling rather than `fs.watch`
 * because watch events are unreliable on network and container file systems, and a poll costs one `read` call.
 * The file is read by position, so only appends are followed; a file truncated and rewritten is not re-read.
 */
export async function* followFile(handle: FileHandle, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  let position = 0;
  while (!signal.aborted) {
    // A fresh buffer per read: the consumer may still hold the previous chunk.
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK_BYTES, position);
    if (bytesRead > 0) {
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
      continue;
    }
    await sleep(POLL_INTERVAL_MS, undefined, { signal }).catch(() => undefined);
  }
}
