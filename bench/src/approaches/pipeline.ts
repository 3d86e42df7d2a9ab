/**
 * The full pipeline: our tokenizer and the core's normalizer to canonical events, alone, with the session reducer,
 * and with the event types a consumer asks for (so records that can only give unwanted types are never parsed).
 * These rows deliver canonical events, not records: events/s is their unit.
 */

import type { CanonicalEvent, NormalizerOptions } from '@cursor-stream/core';
import { CANONICAL_EVENT_TYPES, EVENT_TRAITS } from '@cursor-stream/core/events';
import type { Approach, ParseInput, RecordSink } from './approach.ts';
import { forEachChunk } from './stream-helpers.ts';

/** Hands each event to the sink; an `invalid-line` is also a problem. */
function deliver(events: readonly CanonicalEvent[], sink: RecordSink): void {
  for (const event of events) {
    sink.value(event);
    if (event.type === 'invalid-line') sink.problem();
  }
}

async function normalizeInto(
  input: ParseInput,
  sink: RecordSink,
  options: NormalizerOptions,
  onEvents: (events: readonly CanonicalEvent[]) => void = () => {},
): Promise<void> {
  const { createNormalizer } = await import('@cursor-stream/core');
  const normalizer = createNormalizer(options);
  await forEachChunk(input.open(), (chunk) => {
    const events = normalizer.feed(chunk);
    onEvents(events);
    deliver(events, sink);
  });
  const last = normalizer.end();
  onEvents(last);
  deliver(last, sink);
}

/** `createNormalizer().feed(chunk)` for every chunk, then `end()`. */
export const pipeline: Approach = {
  name: 'pipeline',
  label: 'cursor-stream pipeline: tokenizer + normalizer to canonical events',
  group: 'ours',
  survivesRawNewlines: true,
  delivers: 'events',
  async load() {
    // Imported before the clock starts; normalizeInto's import is then a cache hit.
    await import('@cursor-stream/core');
    return (input, sink) => normalizeInto(input, sink, {});
  },
};

/** The pipeline, and `createSessionReducer().push(event)` for every event. */
export const pipelineReducer: Approach = {
  name: 'pipeline-reducer',
  label: 'cursor-stream pipeline + session reducer',
  group: 'ours',
  survivesRawNewlines: true,
  delivers: 'events',
  async load() {
    const { createSessionReducer } = await import('@cursor-stream/core');
    return async (input, sink) => {
      const reducer = createSessionReducer();
      await normalizeInto(input, sink, {}, (events) => {
        for (const event of events) reducer.push(event);
      });
      // The summaries are the row's output; building them is part of the work measured.
      reducer.sessions();
    };
  },
};

/**
 * Every canonical event type but the reasoning ones: what a consumer that shows no thinking asks for. Read from the
 * core's lean event entry, so that loading the row list does not load the normalizer.
 */
export const TYPES_WITHOUT_REASONING = CANONICAL_EVENT_TYPES.filter((type) => !EVENT_TRAITS[type].reasoning);

/** The pipeline asked for every type but reasoning (`types`), so `thinking` records are skipped unparsed. */
export const pipelineWithoutReasoning: Approach = {
  name: 'pipeline-no-reasoning',
  label: 'cursor-stream pipeline, reasoning filtered out (types: all but reasoning-delta, reasoning-end)',
  group: 'ours',
  survivesRawNewlines: true,
  delivers: 'events',
  eventTypes: TYPES_WITHOUT_REASONING,
  async load() {
    await import('@cursor-stream/core');
    return (input, sink) => normalizeInto(input, sink, { types: TYPES_WITHOUT_REASONING });
  },
};
