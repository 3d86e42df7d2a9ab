/**
 * Delivers a run's events to one client in its format, under their ids, as the bytes its transport sends. The bytes
 * of an event in a format that depends on the event alone are encoded once and shared by every client that sends
 * that event (a run's live events are the same objects for all its clients), so a large event is never copied per
 * client; the client's queue (see `client-queue.ts`) bounds what it holds besides.
 */

import { compareEventIds, type EventId } from './event-ids.ts';
import { createFormatEncoder, isStatelessFormat, type RelayFormat } from './formats.ts';
import type { RunEvent } from './log-events.ts';
import { type SubscriptionSource, subscribe } from './subscription.ts';

/** The messages of one event, in the client's format, and the event's id. */
export interface EventMessages {
  id: string;
  /** JSON texts; empty when the event has no form in the format. */
  messages: string[];
}

/** A transport's bytes for one event: SSE gives one buffer, WebSocket one per message. */
export type FrameEvent = (event: EventMessages) => Buffer[];

/** Event bytes shared between clients, per event object. */
export type FrameCache = WeakMap<RunEvent, Buffer[]>;

/** One shared cache per transport and format; see {@link sharedFrames}. */
const SHARED_FRAMES = new Map<FrameEvent, Map<RelayFormat, FrameCache>>();

/** The cache of `frame`'s bytes in `format`, or `undefined` for a format whose bytes differ per client. */
function sharedFrames(frame: FrameEvent, format: RelayFormat): FrameCache | undefined {
  if (!isStatelessFormat(format)) return undefined;
  let byFormat = SHARED_FRAMES.get(frame);
  if (byFormat === undefined) {
    byFormat = new Map();
    SHARED_FRAMES.set(frame, byFormat);
  }
  let cache = byFormat.get(format);
  if (cache === undefined) {
    cache = new WeakMap();
    byFormat.set(format, cache);
  }
  return cache;
}

/** How a client's stream ended: after the run's last event, because the client left, or because it stopped reading. */
export type StreamOutcome = 'ended' | 'left' | 'stalled';

/** Sends one event's bytes; resolves `false` when the client is gone (or was closed) and nothing more is sent. */
export type SendFrames = (frames: readonly Buffer[]) => Promise<boolean>;

/**
 * Sends every event of the run after `after` to `send`, in order, until the run has ended (resolves `true`) or the
 * client is gone (`signal` aborted, or `send` said so: resolves `false`).
 */
export async function deliverEvents(
  source: SubscriptionSource,
  options: { after: EventId | undefined; format: RelayFormat; signal: AbortSignal },
  frame: FrameEvent,
  send: SendFrames,
): Promise<boolean> {
  const encode = createFormatEncoder(options.format);
  const shared = sharedFrames(frame, options.format);
  // Encoders with state (the AI SDK's blocks) must see every event, also those before `after`.
  const everything = shared === undefined ? undefined : options.after;
  /** A finish that ended a batch, held until the next batch says whether it is the run's last event. */
  let held: RunEvent | undefined;
  for await (const batch of subscribe(source, everything, options.signal)) {
    const events = held === undefined ? batch.events : [held, ...batch.events];
    held = undefined;
    // An encoder with state closes the run after its last event (the AI SDK's `finish`); a run's last events can
    // come in a batch before the one that says they were the last, which may then be empty.
    if (shared === undefined && !batch.final && events.at(-1)?.event.type === 'finish') held = events.pop();
    for (const [index, event] of events.entries()) {
      const last = batch.final && index === events.length - 1;
      let frames = shared?.get(event);
      if (frames === undefined) {
        frames = frame({ id: event.idText, messages: encode(event, last) });
        shared?.set(event, frames);
      }
      if (
        options.after !== undefined &&
        everything === undefined &&
        compareEventIds(event.id, options.after) <= 0
      )
        continue;
      if (!(await send(frames)) || options.signal.aborted) return false;
    }
    if (batch.final) return true;
  }
  return false;
}
