/**
 * Reading a relay's streams as its clients do: Server-Sent Events through eventsource-parser (what EventSource and
 * the AI SDK use), and WebSocket messages through ws.
 */
import type { CanonicalEvent } from '@cursor-stream/core';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import WebSocket from 'ws';

/** One SSE message. */
export interface SseMessage {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/** Reads an SSE stream; stops after `limit` messages (then aborts the request) or at its end. */
export async function readSse(
  url: string,
  options: { headers?: Record<string, string>; limit?: number } = {},
): Promise<{ status: number; messages: SseMessage[] }> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: options.headers ?? {}, signal: abort.signal });
  const messages: SseMessage[] = [];
  if (response.body === null || response.status !== 200) return { status: response.status, messages };
  const stream = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream());
  try {
    for await (const message of stream) {
      messages.push({ id: message.id, event: message.event, data: message.data });
      if (options.limit !== undefined && messages.length >= options.limit) {
        abort.abort();
        break;
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  }
  return { status: response.status, messages };
}

/**
 * Every message of a run's SSE stream up to its `end` message, resuming with `Last-Event-ID` as `EventSource` would
 * when the relay closes the stream first (a reader slowed down by a busy machine can be closed as stalled).
 */
export async function readSseToEnd(url: string, attempts = 20): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    const last = messages.findLast((message) => message.id !== undefined)?.id;
    const read = await readSse(url, last === undefined ? {} : { headers: { 'last-event-id': last } });
    messages.push(...read.messages);
    if (read.messages.some((message) => message.event === 'end')) return messages;
  }
  throw new Error(`${url}: no end message after ${attempts} reads`);
}

/** The canonical events of SSE messages (the `end` message left out), with their ids. */
export function eventsOf(messages: readonly SseMessage[]): { id: string; event: CanonicalEvent }[] {
  return messages
    .filter((message) => message.event === undefined)
    .map((message) => ({ id: message.id ?? '', event: JSON.parse(message.data) as CanonicalEvent }));
}

/** Reads a run's events over WebSocket until the relay closes it, or until `limit` messages (then closes it). */
export function readWebSocket(
  url: string,
  options: { headers?: Record<string, string>; limit?: number } = {},
): Promise<{ id?: string; event: unknown }[]> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: options.headers ?? {} });
    const messages: { id?: string; event: unknown }[] = [];
    socket.on('message', (data) => {
      messages.push(JSON.parse(String(data)) as { id?: string; event: unknown });
      if (options.limit !== undefined && messages.length >= options.limit) socket.close();
    });
    socket.on('close', () => resolve(messages));
    socket.on('error', reject);
  });
}
