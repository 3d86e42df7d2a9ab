/**
 * The same events over WebSocket (`ws`): one message `{ id, event }` per message of the format; when an event gives
 * several, only the last carries the `id`, so a client that resumes after an id has all of that event's messages.
 * The socket closes with 1000 after the run's last event, with {@link RESUME_CLOSE_CODE} when the client stopped
 * reading (it resumes after the last id it received), and with 1011 when the relay failed.
 */

import type { WebSocket } from 'ws';
import {
  type ClientQueueLimits,
  closeGraceOf,
  createClientQueue,
  RESUME_CLOSE_CODE,
  RESUME_CLOSE_REASON,
} from './client-queue.ts';
import {
  deliverEvents,
  type EventMessages,
  type Frame,
  type StreamOutcome,
  type Transport,
} from './event-delivery.ts';
import type { EventId } from './event-ids.ts';
import type { RelayFormat } from './formats.ts';
import type { SubscriptionSource } from './subscription.ts';

const CLOSE_BRACE = Buffer.from('}');

/** Messages up to this size are written together with their framing; larger ones as they are, shared. */
const SMALL_BYTES = 64 * 1024;

/** An event's WebSocket messages `{ id, event }`, the id on the last. */
function webSocketFrames({ id, messages }: EventMessages): Frame[] {
  return messages.map((message, index) => {
    const head = Buffer.from(
      index === messages.length - 1 ? `{"id":${JSON.stringify(id)},"event":` : '{"event":',
    );
    const parts = [head, message, CLOSE_BRACE];
    return message.length <= SMALL_BYTES ? [Buffer.concat(parts)] : parts;
  });
}

/** {@link webSocketFrames} as texts. */
function webSocketTexts(id: string, messages: readonly string[]): string[] {
  const last = messages.length - 1;
  return messages.map((message, index) =>
    index === last ? `{"id":${JSON.stringify(id)},"event":${message}}` : `{"event":${message}}`,
  );
}

/** The WebSocket transport. */
const WEB_SOCKET: Transport = { name: 'ws', frames: webSocketFrames, texts: webSocketTexts, joinable: false };

/** Sends a run's events on `socket` until its end or the client leaves. */
export async function streamWebSocket(
  socket: WebSocket,
  source: SubscriptionSource,
  options: { after: EventId | undefined; format: RelayFormat; queue?: ClientQueueLimits },
): Promise<StreamOutcome> {
  const gone = new AbortController();
  socket.once('close', () => gone.abort());
  let stalled = false;
  const queue = createClientQueue(
    {
      // A message larger than a slice goes out as fragments of one message.
      write: (bytes, last, taken) => socket.send(bytes, { binary: false, fin: last }, () => taken()),
      get closed() {
        return stalled || socket.readyState !== socket.OPEN;
      },
      onClose: (listener) => socket.once('close', listener),
      stall: () => {
        stalled = true;
        socket.close(RESUME_CLOSE_CODE, RESUME_CLOSE_REASON);
        // The close frame waits behind what the client has not read; a client that never reads is cut off.
        setTimeout(() => socket.terminate(), closeGraceOf(options.queue)).unref();
      },
    },
    options.queue,
  );
  const ended = await deliverEvents(
    source,
    { ...options, signal: gone.signal },
    WEB_SOCKET,
    async (frames) => {
      for (const frame of frames) if ((await queue.send(frame)) !== 'sent') return false;
      return true;
    },
  );
  if (!ended) return stalled ? 'stalled' : 'left';
  if (socket.readyState === socket.OPEN) socket.close(1000, 'the run has ended');
  return 'ended';
}
