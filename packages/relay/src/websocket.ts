/**
 * The same events over WebSocket (`ws`): one message `{ id, event }` per message of the format; when an event gives
 * several, only the last carries the `id`, so a client that resumes after an id has all of that event's messages.
 * The socket closes with 1000 after the run's last event.
 */

import type { WebSocket } from 'ws';
import { deliverEvents } from './event-delivery.ts';
import type { EventId } from './event-ids.ts';
import type { RelayFormat } from './formats.ts';
import type { SubscriptionSource } from './subscription.ts';

/** Bytes queued on a socket before the relay waits for the client. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

function drained(socket: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (socket.bufferedAmount < MAX_BUFFERED_BYTES / 2 || socket.readyState !== socket.OPEN) {
        clearInterval(timer);
        resolve();
      }
    };
    const timer = setInterval(check, 10);
  });
}

/** Sends a run's events on `socket` until its end or the client leaves. */
export async function streamWebSocket(
  socket: WebSocket,
  source: SubscriptionSource,
  options: { after: EventId | undefined; format: RelayFormat },
): Promise<void> {
  const gone = new AbortController();
  socket.once('close', () => gone.abort());
  const ended = await deliverEvents(source, { ...options, signal: gone.signal }, async ({ id, messages }) => {
    for (const [index, message] of messages.entries()) {
      const tag = index === messages.length - 1 ? `"id":${JSON.stringify(id)},` : '';
      socket.send(`{${tag}"event":${message}}`);
    }
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) await drained(socket);
  });
  if (ended && socket.readyState === socket.OPEN) socket.close(1000, 'the run has ended');
}
