/**
 * Delivers a run's events to one client in its format, under their ids, as the bytes its transport sends. The bytes
 * of an event in a format that depends on the event alone are encoded once and shared by every client sending that
 * event at the same time (a run's live events are the same objects for all its clients), so clients stuck on a large
 * event hold one copy of it, not one each; the client's queue (see `client-queue.ts`) bounds what it holds besides.
 */

import { compareEventIds, type EventId } from './event-ids.ts';
import { createFormatEncoder, type FormatEncoder, isStatelessFormat, type RelayFormat } from './formats.ts';
import { LARGE_EVENT_JSON, type RunEvent } from './log-events.ts';
import { holdJsonBytes, holdShared, type SharedLease } from './shared-bytes.ts';
import { type SubscriptionSource, subscribe } from './subscription.ts';

/** The messages of one event, in the client's format, and the event's id. */
export interface EventMessages {
  id: string;
  /** JSON texts as UTF-8; empty when the event has no form in the format. */
  messages: Buffer[];
}

/** What a transport writes at once (SSE: a block of messages; WebSocket: one message), in parts. */
export type Frame = Buffer[];

/** A transport: its name, and its frames for an event, as bytes (a large event) or as texts (a small one). */
export interface Transport {
  name: string;
  frames: (event: EventMessages) => Frame[];
  /** The same as {@link frames}, each frame as one text. */
  texts: (id: string, messages: readonly string[]) => string[];
  /** SSE's frames are bytes of one stream, which small events are best written in together; WebSocket's are messages. */
  joinable: boolean;
}

/** How a client's stream ended: after the run's last event, because the client left, or because it stopped reading. */
export type StreamOutcome = 'ended' | 'left' | 'stalled';

/**
 * Sends frames of one or more events, in order; resolves `false` when the client is gone (or was closed) and nothing
 * more is sent. Called also with no frames when the events had no form in the format.
 */
export type SendFrames = (frames: readonly Frame[]) => Promise<boolean>;

/** Length (UTF-16 units) of small events' frames gathered before they are sent. */
const GATHER_LENGTH = 32 * 1024;

/** A large event's frames in a format that depends on the event alone, held while they are sent. */
function holdFrames(
  event: RunEvent,
  transport: Transport,
  format: RelayFormat,
  encode: FormatEncoder,
): SharedLease<Frame[]> {
  return holdShared(event, `${transport.name}:${format}`, () => {
    if (format !== 'canonical') {
      const messages = encode(event, false).map((message) => Buffer.from(message));
      return { value: transport.frames({ id: event.idText, messages }) };
    }
    // The canonical message is the event's JSON: its bytes are the journal's too.
    const json = holdJsonBytes(event);
    return { value: transport.frames({ id: event.idText, messages: [json.value] }), dispose: json.release };
  });
}

/** Frames of small events gathered to be sent together, as texts (encoded once, when sent). */
class Gathered {
  texts: string[] = [];
  length = 0;
  events = 0;

  add(texts: readonly string[]): void {
    this.events += 1;
    for (const text of texts) {
      this.texts.push(text);
      this.length += text.length;
    }
  }

  /** Sends what is gathered (also events without frames, so the transport knows they came). */
  async flush(transport: Transport, send: SendFrames): Promise<boolean> {
    if (this.events === 0) return true;
    const texts = transport.joinable && this.texts.length > 1 ? [this.texts.join('')] : this.texts;
    this.texts = [];
    this.length = 0;
    this.events = 0;
    return send(texts.map((text) => [Buffer.from(text)]));
  }
}

/**
 * Sends every event of the run after `after` to `send`, in order, until the run has ended (resolves `true`) or the
 * client is gone (`signal` aborted, or `send` said so: resolves `false`).
 */
export async function deliverEvents(
  source: SubscriptionSource,
  options: { after: EventId | undefined; format: RelayFormat; signal: AbortSignal },
  transport: Transport,
  send: SendFrames,
): Promise<boolean> {
  const encode = createFormatEncoder(options.format);
  const stateless = isStatelessFormat(options.format);
  // Encoders with state (the AI SDK's blocks) must see every event, also those before `after`.
  const everything = stateless ? options.after : undefined;
  const gathered = new Gathered();
  /** A finish that ended a batch, held until the next batch says whether it is the run's last event. */
  let held: RunEvent | undefined;
  for await (const batch of subscribe(source, everything, options.signal)) {
    const events = held === undefined ? batch.events : [held, ...batch.events];
    held = undefined;
    // An encoder with state closes the run after its last event (the AI SDK's `finish`); a run's last events can
    // come in a batch before the one that says they were the last, which may then be empty.
    if (!stateless && !batch.final && events.at(-1)?.event.type === 'finish') held = events.pop();
    for (const [index, event] of events.entries()) {
      if (!stateless || event.json.length < LARGE_EVENT_JSON) {
        const last = batch.final && index === events.length - 1;
        const messages = encode(event, last);
        if (!stateless && options.after !== undefined && compareEventIds(event.id, options.after) <= 0)
          continue;
        gathered.add(transport.texts(event.idText, messages));
        if (gathered.length >= GATHER_LENGTH && !(await gathered.flush(transport, send))) return false;
        continue;
      }
      // Shared while they are sent: clients stuck on a large event share its bytes, and an event nobody is
      // sending costs no bytes besides the ring's.
      if (!(await gathered.flush(transport, send))) return false;
      const frames = holdFrames(event, transport, options.format, encode);
      let sent: boolean;
      try {
        sent = await send(frames.value);
      } finally {
        frames.release();
      }
      if (!sent || options.signal.aborted) return false;
    }
    if (!(await gathered.flush(transport, send)) || options.signal.aborted) return false;
    if (batch.final) return true;
  }
  return false;
}
