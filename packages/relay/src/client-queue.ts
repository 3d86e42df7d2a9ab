/**
 * One client's queue: what the relay has handed its connection and the client has not taken yet, bounded in bytes.
 * A message goes out in slices of the buffers it is in (never copied, so an event's bytes encoded once are shared by
 * every client that sends them), and a slice is handed over only while the queue holds less than its bound. A client
 * that takes nothing for a while, with output waiting, is closed with a code that tells it to resume after the last
 * id it received: it loses nothing, and frees what it held.
 */

/** The close code of a WebSocket client that stopped taking its events: resume after the last id received. */
export const RESUME_CLOSE_CODE = 4408;

/** The reason sent with {@link RESUME_CLOSE_CODE}. */
export const RESUME_CLOSE_REASON = 'too slow: resume after the last id received';

/** Bounds of each client's queue. */
export interface ClientQueueLimits {
  /** Bytes handed to a connection and not taken by the client yet (besides what the kernel holds). @defaultValue 256 KiB */
  maxBytes?: number;
  /** How long a client may take nothing while output waits before it is closed. @defaultValue 30 s */
  stallMs?: number;
  /**
   * How long a client closed as stalled gets to read what was sent before the close, and the close itself, before
   * its connection is cut. @defaultValue `stallMs`
   */
  closeGraceMs?: number;
}

/** How long a client closed as stalled keeps its connection: {@link ClientQueueLimits.closeGraceMs}. */
export function closeGraceOf(limits: ClientQueueLimits | undefined): number {
  return limits?.closeGraceMs ?? limits?.stallMs ?? 30_000;
}

/** Bytes handed over at once: a large event goes out in slices of this size. */
const SLICE_BYTES = 64 * 1024;

/** A client's connection as the queue writes to it. */
export interface ClientConnection {
  /**
   * Writes part of a message (`last`: its end). Calls `taken` once the bytes have left the relay's hands (or the
   * connection is gone).
   */
  write(bytes: Uint8Array, last: boolean, taken: () => void): void;
  /** Whether the connection is closed. */
  readonly closed: boolean;
  /** Calls `listener` once the connection closes. */
  onClose(listener: () => void): void;
  /** Closes a client that stopped taking its output, telling it to resume. */
  stall(): void;
}

/** How {@link ClientQueue.send} ended. */
export type SendOutcome = 'sent' | 'closed' | 'stalled';

/** One client's bounded queue; see the module comment. */
export interface ClientQueue {
  /** Hands a message (its parts, in order) over, waiting while the queue is full. */
  send(message: readonly Uint8Array[]): Promise<SendOutcome>;
  /** Bytes handed over and not taken yet. */
  readonly queuedBytes: number;
}

/** Creates the queue of one connection. */
export function createClientQueue(connection: ClientConnection, limits: ClientQueueLimits = {}): ClientQueue {
  const maxBytes = Math.max(limits.maxBytes ?? 256 * 1024, 1);
  const stallMs = limits.stallMs ?? 30_000;
  let queued = 0;
  let stalled = false;
  let wake: (() => void) | undefined;
  connection.onClose(() => wake?.());

  /** Resolves true once the client took something, false when it closed or stalled. */
  function progress(): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        wake = undefined;
        stalled = true;
        connection.stall();
        resolve(false);
      }, stallMs);
      wake = () => {
        wake = undefined;
        clearTimeout(timer);
        resolve(!connection.closed);
      };
    });
  }

  return {
    async send(message) {
      let left = message.reduce((sum, part) => sum + part.length, 0);
      for (const part of message) {
        let at = 0;
        while (at < part.length) {
          if (stalled) return 'stalled';
          if (connection.closed) return 'closed';
          if (queued >= maxBytes) {
            if (!(await progress())) return stalled ? 'stalled' : 'closed';
            continue;
          }
          const size = Math.min(SLICE_BYTES, part.length - at);
          const slice = part.subarray(at, at + size);
          at += size;
          left -= size;
          queued += size;
          connection.write(slice, left === 0, () => {
            queued -= size;
            wake?.();
          });
        }
      }
      return stalled ? 'stalled' : connection.closed ? 'closed' : 'sent';
    },
    get queuedBytes() {
      return queued;
    },
  };
}
