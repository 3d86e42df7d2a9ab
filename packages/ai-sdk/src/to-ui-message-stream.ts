/** The encoder over whole event sources: an async generator, and a WHATWG `ReadableStream` for HTTP responses. */

import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import type { UIMessageChunk } from 'ai';
import { createUIMessageEncoder, type UIMessageEncoderOptions } from './ui-message-encoder.ts';

/** Canonical events from anywhere: an array, a generator, a `runAgent` run, a normalizer stream. */
export type CanonicalEventSource = Iterable<CanonicalEvent> | AsyncIterable<CanonicalEvent>;

/**
 * The UI message stream chunks of `events`, as one assistant message: `start` first, `finish` last (see
 * {@link createUIMessageEncoder} for the mapping). Leaving the loop early stops the source (a `runAgent` run is then
 * cancelled).
 *
 * @example
 * ```ts
 * for await (const chunk of toUIMessageStream(runAgent('Summarize README.md'))) console.log(chunk.type);
 * ```
 */
export async function* toUIMessageStream(
  events: CanonicalEventSource,
  options: UIMessageEncoderOptions = {},
): AsyncGenerator<UIMessageChunk, void, undefined> {
  const encoder = createUIMessageEncoder(options);
  for await (const event of events) yield* encoder.encode(event);
  yield* encoder.end();
}

/**
 * {@link toUIMessageStream} as a `ReadableStream`, the form the AI SDK's `createUIMessageStreamResponse({ stream })`
 * takes. Cancelling the stream stops the source.
 */
export function toUIMessageReadableStream(
  events: CanonicalEventSource,
  options: UIMessageEncoderOptions = {},
): ReadableStream<UIMessageChunk> {
  const chunks = toUIMessageStream(events, options);
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return();
    },
  });
}
