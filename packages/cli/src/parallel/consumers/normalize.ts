/** `normalize` on a worker: each delivery's events as NDJSON lines, exactly as one thread writes them. */

import { type CanonicalEvent, stringifyEvent } from '@cursor-stream/core/normalize';
import type { RangeConsumer } from '../range-consumer.ts';

/**
 * Events become NDJSON here, on the worker, where most of the work is, down to its UTF-8 bytes: they move to the main
 * thread without a copy, and it only writes them. An item is the bytes of a batch's lines; the count is events, so
 * that a resumed run can leave out exactly the events written.
 */
export function normalizeConsumer(skip: number): RangeConsumer {
  const encoder = new TextEncoder();
  let left = skip;
  let items: string[] = [];
  let count = 0;
  let bytes = 0;
  return {
    onDialect() {},
    onEvents(events: readonly CanonicalEvent[]) {
      const kept = left === 0 ? events : events.slice(Math.min(left, events.length));
      left -= events.length - kept.length;
      if (kept.length === 0) return;
      const text = `${kept.map(stringifyEvent).join('\n')}\n`;
      items.push(text);
      count += kept.length;
      bytes += text.length;
    },
    end() {},
    take() {
      const taken = { items: items.length === 0 ? [] : [encoder.encode(items.join(''))], count, bytes };
      items = [];
      count = 0;
      bytes = 0;
      return taken;
    },
    result: () => null,
  };
}
