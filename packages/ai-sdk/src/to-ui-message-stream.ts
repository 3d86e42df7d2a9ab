/** The encoder over whole event sources: an async generator, and a WHATWG `ReadableStream` for HTTP responses. */

import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import type { UIMessageChunk } from 'ai';
import { createUIMessageEncoder, type UIMessageEncoderOptions } from './ui-message-encoder.ts';

/** Canonical events from anywhere: an array, a generator, a `runAgent` run, a normalizer stream. */
export type CanonicalEventSource = Iterable<CanonicalEvent> | AsyncIterable<CanonicalEvent>;

/**
 * The UI message stream chunks of `events`, as one assistant message: `start` first, `finish` last (see
 * {@link createUIMessageEncoder} for the mapping). Leaving the loop early stops the source (a `runAgent` run is then
 * cancelled). A source that throws ends the message as a failed run does: its open parts closed, then an `error`
 * saying why, then `finish`.
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
  try {
    for await (const event of events) yield* encoder.encode(event);
  } catch (error) {
    // A client shows why the message ended, with every part it opened finished, rather than a cut stream.
    yield* encoder.encode({ type: 'error', message: `the run's events stopped: ${describeError(error)}` });
  }
  yield* encoder.end();
}

function describeError(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'an unknown error';
  }
}

/**
 * {@link toUIMessageStream} as a `ReadableStream`, the form the AI SDK's `createUIMessageStreamResponse({ stream })`
 * takes. Cancelling the stream stops the source once its pending event comes (an async iterator finishes a `next`
 * before it takes a `return`): pass the request's `signal` to `runAgent` to stop a run that is silent at once.
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
