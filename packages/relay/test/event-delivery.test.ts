import { readFileSync } from 'node:fs';
import {
  compareEventIds,
  createLogEventReader,
  type RelayFormat,
  type RingLimits,
  type RunEvent,
  type RunStore,
} from '@cursor-stream/relay';
import { describe, expect, test } from 'vitest';
import { deliverEvents, type EventMessages } from '../src/event-delivery.ts';
import { createLiveRun } from '../src/live-run.ts';
import { type SubscriptionSource, subscribe } from '../src/subscription.ts';
import { RECORDING } from './support.ts';

/** A run in flight that has written the recording and ended; its newest events are in its ring. */
async function endedLiveRun(ring: RingLimits = {}): Promise<SubscriptionSource> {
  const live = createLiveRun(
    '000000000-000000000000',
    { append: async () => {}, close: async () => {} },
    ring,
  );
  live.append(readFileSync(RECORDING));
  await live.end(null);
  // Every event comes from the ring: the store is never asked for the log.
  const store = new Proxy({} as RunStore, {
    get: () => {
      throw new Error('the store was read');
    },
  });
  return { runId: live.runId, store, live, failure: () => null };
}

const frame = ({ id, messages }: EventMessages) => messages.map((message) => Buffer.from(`${id} ${message}`));

async function framesOf(source: SubscriptionSource, format: RelayFormat): Promise<Buffer[][]> {
  const sent: Buffer[][] = [];
  const signal = new AbortController().signal;
  const ended = await deliverEvents(source, { after: undefined, format, signal }, frame, async (frames) => {
    sent.push([...frames]);
    return true;
  });
  expect(ended).toBe(true);
  return sent;
}

describe('event bytes', () => {
  test.each(['canonical', 'payload-envelope'] as const)(
    'in %s, are made once per event and shared by every client',
    async (format) => {
      const source = await endedLiveRun();
      const [first, second] = await Promise.all([framesOf(source, format), framesOf(source, format)]);
      expect(first?.length).toBeGreaterThan(5);
      expect(second).toHaveLength(first?.length ?? 0);
      for (const [index, frames] of (first ?? []).entries()) {
        const other = second?.[index] ?? [];
        expect(other).toHaveLength(frames.length);
        // The same buffers, not equal copies.
        for (const [at, bytes] of frames.entries()) expect(other[at]).toBe(bytes);
      }
    },
  );

  test('in ai-sdk, whose messages depend on the events before, are made per client, the same', async () => {
    const source = await endedLiveRun();
    const [first, second] = await Promise.all([framesOf(source, 'ai-sdk'), framesOf(source, 'ai-sdk')]);
    expect(second).toEqual(first);
    expect(second?.[0]?.[0]).not.toBe(first?.[0]?.[0]);
    expect(String(first?.at(-1)?.at(-1))).toMatch(/"type":"finish"/);
  });
});

describe('a resume of a run in flight', () => {
  test('after an id its ring holds is served from the ring alone, the same events a read from the start gives', async () => {
    const source = await endedLiveRun({ maxEvents: 8 });
    const reader = createLogEventReader();
    const all = [...reader.feed(readFileSync(RECORDING)), ...reader.end(null)];
    const ringStart = source.live?.ringStart ?? 0;
    expect(ringStart).toBeGreaterThan(0);
    for (const from of [ringStart, ringStart + 3, all.length - 1]) {
      const after = all[from]?.id;
      const given: RunEvent[] = [];
      for await (const batch of subscribe(source, after, new AbortController().signal))
        given.push(...batch.events);
      const expected = all.filter((event) => after !== undefined && compareEventIds(event.id, after) > 0);
      expect(given.map(({ seq, idText, json }) => ({ seq, idText, json }))).toEqual(
        expected.map(({ seq, idText, json }) => ({ seq, idText, json })),
      );
    }
  });
});
