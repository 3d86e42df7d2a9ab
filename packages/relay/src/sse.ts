/**
 * Server-sent events: `id:` is the event id, so a browser's `EventSource` resumes by itself after a dropped
 * connection (it sends `Last-Event-ID`). The stream ends after the run's last event with an `end` event (or the AI
 * SDK's `[DONE]`); a request for what comes after the last event gets `204`, which tells `EventSource` to stop.
 */

import type { ServerResponse } from 'node:http';
import { type ClientQueueLimits, closeGraceOf, createClientQueue } from './client-queue.ts';
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

/** A comment sent on an idle stream, so proxies keep it open. */
const HEARTBEAT_MS = 15_000;

/** How long a browser waits before it reconnects. */
const RETRY_MS = 1000;

const BLANK_LINE = Buffer.from('\n\n');

/**
 * An event's SSE frames: a `data:` line per message, each message its own event block, the id on the last block (a
 * resume after it skips all of them).
 */
function sseFrames({ id, messages }: EventMessages): Frame[] {
  if (messages.length === 0) return [];
  return [
    messages.flatMap((message, index) => [
      Buffer.from(index === messages.length - 1 ? `id: ${id}\ndata: ` : 'data: '),
      message,
      BLANK_LINE,
    ]),
  ];
}

/** The SSE text of one event: {@link sseFrames} as text. */
function sseText(id: string, messages: readonly string[]): string[] {
  if (messages.length === 0) return [];
  const last = messages.length - 1;
  return [
    messages.map((message, index) => `${index === last ? `id: ${id}\n` : ''}data: ${message}\n\n`).join(''),
  ];
}

/** The SSE transport. */
const SSE: Transport = { name: 'sse', frames: sseFrames, texts: sseText, joinable: true };

/**
 * Streams a run's events over SSE until its end or the client leaves. A client that stops reading is ended (then
 * cut off, if it does not take even that): its `EventSource` reconnects with `Last-Event-ID` and loses nothing.
 */
export async function streamSse(
  response: ServerResponse,
  source: SubscriptionSource,
  options: { after: EventId | undefined; format: RelayFormat; queue?: ClientQueueLimits },
): Promise<StreamOutcome> {
  const gone = new AbortController();
  response.once('close', () => gone.abort());
  let started = false;
  let ending = false;
  const start = () => {
    if (started) return;
    started = true;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      // What a log holds is never read as another type.
      'x-content-type-options': 'nosniff',
      ...(options.format === 'ai-sdk' ? { 'x-vercel-ai-ui-message-stream': 'v1' } : {}),
    });
    response.write(`retry: ${RETRY_MS}\n\n`);
  };
  const queue = createClientQueue(
    {
      write: (bytes, _last, taken) => {
        response.write(bytes, () => taken());
      },
      get closed() {
        return gone.signal.aborted || ending;
      },
      onClose: (listener) => response.once('close', listener),
      stall: () => {
        ending = true;
        response.end();
        setTimeout(() => response.destroy(), closeGraceOf(options.queue)).unref();
      },
    },
    options.queue,
  );
  const heartbeat = setInterval(() => {
    if (ending || gone.signal.aborted) return;
    start();
    response.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  try {
    const ended = await deliverEvents(source, { ...options, signal: gone.signal }, SSE, async (frames) => {
      start();
      for (const frame of frames) if ((await queue.send(frame)) !== 'sent') return false;
      return true;
    });
    if (!ended) return ending ? 'stalled' : 'left';
    if (!started) {
      // Nothing after the client's last id, and the run is over: 204 stops an EventSource from reconnecting.
      response.writeHead(204).end();
      return 'ended';
    }
    response.end(options.format === 'ai-sdk' ? 'data: [DONE]\n\n' : 'event: end\ndata: {}\n\n');
    return 'ended';
  } finally {
    clearInterval(heartbeat);
  }
}
