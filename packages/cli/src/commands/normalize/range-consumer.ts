/** `normalize` on a worker: each delivery's events as NDJSON lines, exactly as one thread writes them. */

import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import type { ConsumerFactory, CreateConsumerFactory, RangeConsumer } from '@cursor-stream/node/ranges';
import { eventLines } from './output.ts';

/**
 * `bytes` in an array buffer of their own: items are moved to the main thread by transferring their buffer, and a
 * small `Buffer` may share Node's pool with others.
 */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : new Uint8Array(bytes);
}

/**
 * Events become NDJSON here, on the worker, where most of the work is, down to their UTF-8 bytes (long strings never
 * decoded copied from the input, as on one thread): they move to the main thread without a copy, and it only writes
 * them. An item is the bytes of a batch's lines; the count is events, so that a resumed run can leave out exactly the
 * events written.
 */
export function normalizeConsumer(skip: number): RangeConsumer {
  let left = skip;
  let items: Uint8Array[] = [];
  let count = 0;
  let bytes = 0;
  return {
    onDialect() {},
    onEvents(events: readonly CanonicalEvent[]) {
      const kept = left === 0 ? events : events.slice(Math.min(left, events.length));
      left -= events.length - kept.length;
      if (kept.length === 0) return;
      const item = ownBuffer(eventLines(kept));
      items.push(item);
      count += kept.length;
      bytes += item.length;
    },
    end() {},
    take() {
      const taken = { items, count, bytes };
      items = [];
      count = 0;
      bytes = 0;
      return taken;
    },
    result: () => null,
  };
}

/** `normalize`'s consumers, for a range worker: they depend on nothing but the events. */
export const createConsumerFactory: CreateConsumerFactory = (): ConsumerFactory => normalizeConsumer;
