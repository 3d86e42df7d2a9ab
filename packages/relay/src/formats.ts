/**
 * The encodings a client can ask for: `canonical` (the events as they are), `payload-envelope` (the web app's own
 * records, with its `raw` wrapper for lines that are not records) and `ai-sdk` (the AI SDK's UI message stream).
 * Each event gives zero or more messages, all sent under the event's id.
 */

import { createUIMessageEncoder } from '@cursor-stream/ai-sdk';
import { payloadEnvelopeDialect } from '@cursor-stream/core/normalize';
import type { RunEvent } from './log-events.ts';

/** The encodings of a run's events. */
export const RELAY_FORMATS = ['canonical', 'payload-envelope', 'ai-sdk'] as const;

/** One of {@link RELAY_FORMATS}. */
export type RelayFormat = (typeof RELAY_FORMATS)[number];

/** Whether `text` names a format. */
export function isRelayFormat(text: string): text is RelayFormat {
  return (RELAY_FORMATS as readonly string[]).includes(text);
}

/** Encodes one client's events, in order; `last` marks the run's last event. Gives JSON texts. */
export type FormatEncoder = (event: RunEvent, last: boolean) => string[];

function payloadEnvelopeEncoder(): FormatEncoder {
  return ({ event }) => {
    // The app wraps a line that is not a record as `raw`, so its clients see every line of the agent.
    if (event.type === 'invalid-line') return [JSON.stringify({ type: 'raw', data: event.excerpt })];
    return (payloadEnvelopeDialect.encode?.([event]) ?? []).map((record) => JSON.stringify(record));
  };
}

function aiSdkEncoder(): FormatEncoder {
  const encoder = createUIMessageEncoder();
  return ({ event }, last) => {
    const chunks = encoder.encode(event);
    if (last) chunks.push(...encoder.end());
    return chunks.map((chunk) => JSON.stringify(chunk));
  };
}

/**
 * Whether a format's messages for an event depend on the event alone (not on the events before it), so that they can
 * be encoded once and shared by every client.
 */
export function isStatelessFormat(format: RelayFormat): boolean {
  return format !== 'ai-sdk';
}

/** A fresh encoder for one client (the AI SDK's is stateful: its blocks span events). */
export function createFormatEncoder(format: RelayFormat): FormatEncoder {
  if (format === 'payload-envelope') return payloadEnvelopeEncoder();
  if (format === 'ai-sdk') return aiSdkEncoder();
  return ({ json }) => [json];
}
