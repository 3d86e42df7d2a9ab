/** Our tokenizer, through its two reading styles. */

import type { Approach } from './approach.ts';
import { forEachChunk } from './stream-helpers.ts';

/** `createNdjsonTokenizer` with `onRecord`/`onProblem` callbacks, fed every chunk. */
export const oursCallback: Approach = {
  name: 'ours-callback',
  label: 'cursor-stream tokenizer (callbacks)',
  group: 'ours',
  survivesRawNewlines: true,
  async load() {
    const { createNdjsonTokenizer } = await import('@cursor-stream/ndjson');
    return async (input, sink) => {
      const tokenizer = createNdjsonTokenizer({
        onRecord: (record) => sink.value(record.value),
        onProblem: () => sink.problem(),
      });
      await forEachChunk(input.open(), (chunk) => tokenizer.feed(chunk));
      tokenizer.end();
    };
  },
};

/** `iterateNdjson` over the read stream: the async-iterable style. */
export const oursIterable: Approach = {
  name: 'ours-iterable',
  label: 'cursor-stream iterateNdjson (for await)',
  group: 'ours',
  survivesRawNewlines: true,
  async load() {
    const { isNdjsonProblem, iterateNdjson } = await import('@cursor-stream/ndjson');
    return async (input, sink) => {
      for await (const item of iterateNdjson(input.open())) {
        if (isNdjsonProblem(item)) sink.problem();
        else sink.value(item.value);
      }
    };
  },
};
