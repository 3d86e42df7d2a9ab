/**
 * What the test page runs: fetch a recording from the page's own server and normalize it with the browser's
 * streams, through the tokenizer and the core as bundled for the browser.
 */

import { type CanonicalEvent, NormalizerTransformStream } from '@cursor-stream/core';
import { createNdjsonTokenizer } from '@cursor-stream/ndjson';

/** The canonical events of the recording at `url`, read through `fetch` and a `TransformStream`. */
export async function normalizeUrl(url: string): Promise<CanonicalEvent[]> {
  const response = await fetch(url);
  if (response.body === null) throw new Error(`${url} has no body`);
  const reader = response.body.pipeThrough(new NormalizerTransformStream()).getReader();
  const events: CanonicalEvent[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    events.push(value);
  }
}

/** How many records the bare tokenizer finds in the recording at `url`. */
export async function countRecords(url: string): Promise<number> {
  const tokenizer = createNdjsonTokenizer();
  const items = [
    ...tokenizer.feed(new Uint8Array(await (await fetch(url)).arrayBuffer())),
    ...tokenizer.end(),
  ];
  return items.filter((item) => !('code' in item)).length;
}
