/**
 * Server-sent events: `id:` is the event id, so a browser's `EventSource` resumes by itself after a dropped
 * connection (it sends `Last-Event-ID`). The stream ends after the run's last event with an `end` event (or the AI
 * SDK's `[DONE]`); a request for what comes after the last event gets `204`, which tells `EventSource` to stop.
 */

import type { ServerResponse } from 'node:http';
import { deliverEvents, type EventMessages } from './event-delivery.ts';
import type { EventId } from './event-ids.ts';
import type { RelayFormat } from './formats.ts';
import type { SubscriptionSource } from './subscription.ts';

/** A comment sent on an idle stream, so proxies keep it open. */
const HEARTBEAT_MS = 15_000;

/** How long a browser waits before it reconnects. */
const RETRY_MS = 1000;

/** The SSE text of one event: its messages, the id on the last (a resume after it skips all of them). */
export function sseText({ id, messages }: EventMessages): string {
  return messages
    .map((message, index) => {
      const data = `data: ${message}\n`;
      return index === messages.length - 1 ? `id: ${id}\n${data}\n` : `${data}\n`;
    })
    .join('');
}

/** Resolves once `response` can take more, or has closed. */
function writable(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/** Streams a run's events over SSE until its end or the client leaves. */
export async function streamSse(
  response: ServerResponse,
  source: SubscriptionSource,
  options: { after: EventId | undefined; format: RelayFormat },
): Promise<void> {
  const gone = new AbortController();
  response.once('close', () => gone.abort());
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      ...(options.format === 'ai-sdk' ? { 'x-vercel-ai-ui-message-stream': 'v1' } : {}),
    });
    response.write(`retry: ${RETRY_MS}\n\n`);
  };
  const heartbeat = setInterval(() => {
    start();
    response.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  try {
    const ended = await deliverEvents(source, { ...options, signal: gone.signal }, async (event) => {
      start();
      if (event.messages.length > 0 && !response.write(sseText(event))) await writable(response);
    });
    if (!ended) return;
    if (!started) {
      // Nothing after the client's last id, and the run is over: 204 stops an EventSource from reconnecting.
      response.writeHead(204).end();
      return;
    }
    response.end(options.format === 'ai-sdk' ? 'data: [DONE]\n\n' : 'event: end\ndata: {}\n\n');
  } finally {
    clearInterval(heartbeat);
  }
}
