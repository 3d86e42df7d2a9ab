/**
 * Delivers a run's events to one client in its format, under their ids, waiting for the client whenever its
 * connection's buffer is full (so a slow client costs a bounded buffer; see the subscription for the rest).
 */

import { compareEventIds, type EventId } from './event-ids.ts';
import { createFormatEncoder, type RelayFormat } from './formats.ts';
import { type SubscriptionSource, subscribe } from './subscription.ts';

/** The messages of one event, in the client's format, and the event's id. */
export interface EventMessages {
  id: string;
  /** JSON texts; empty when the event has no form in the format. */
  messages: string[];
}

/** Sends one event's messages; resolves when the client can take more. */
export type SendEvent = (event: EventMessages) => Promise<void>;

/**
 * Sends every event of the run after `after` to `send`, in order, until the run has ended (resolves `true`) or
 * `signal` aborts (resolves `false`).
 */
export async function deliverEvents(
  source: SubscriptionSource,
  options: { after: EventId | undefined; format: RelayFormat; signal: AbortSignal },
  send: SendEvent,
): Promise<boolean> {
  const encode = createFormatEncoder(options.format);
  // Encoders with state (the AI SDK's blocks) must see every event, also those before `after`.
  const everything = options.format === 'ai-sdk' ? undefined : options.after;
  for await (const batch of subscribe(source, everything, options.signal)) {
    for (const [index, event] of batch.events.entries()) {
      const last = batch.final && index === batch.events.length - 1;
      const messages = encode(event, last);
      if (
        options.after !== undefined &&
        everything === undefined &&
        compareEventIds(event.id, options.after) <= 0
      )
        continue;
      await send({ id: event.idText, messages });
      if (options.signal.aborted) return false;
    }
    if (batch.final) return true;
  }
  return false;
}
