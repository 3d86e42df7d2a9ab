import { readFileSync } from 'node:fs';
import {
  compareEventIds,
  createLogEventReader,
  type RelayFormat,
  type RingLimits,
  type RunEvent,
  type RunStore,
} from '@cursor-stream/relay';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { describe, expect, test } from 'vitest';
import { deliverEvents, type EventMessages, type Frame, type Transport } from '../src/event-delivery.ts';
import { createLiveRun } from '../src/live-run.ts';
import { type SubscriptionSource, subscribe } from '../src/subscription.ts';

/** A run whose text comes in records of 100 KB, besides small ones. */
function largeRecords(): Buffer {
  const session = { session_id: 's-large' };
  const lines: object[] = [{ type: 'system', subtype: 'init', model: 'Auto', ...session }];
  for (let i = 0; i < 6; i++) {
    const text = `${i} ${'large '.repeat(20_000)}`;
    lines.push({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text }] },
      ...session,
    });
    lines.push({ type: 'thinking', subtype: 'delta', text: `small ${i}`, ...session });
  }
  lines.push({ type: 'result', subtype: 'success', is_error: false, result: '', duration_ms: 1, ...session });
  return Buffer.from(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
}

/** A run in flight that has written `log` and ended; its newest events are in its ring. */
async function endedLiveRun(
  ring: RingLimits = {},
  log: Buffer = readFileSync(DOCS_EXAMPLE),
): Promise<SubscriptionSource> {
  const live = createLiveRun(
    '000000000-000000000000',
    { append: async () => {}, close: async () => {} },
    ring,
  );
  live.append(log);
  await live.end(null);
  // Every event comes from the ring: the store is never asked for the log.
  const store = new Proxy({} as RunStore, {
    get: () => {
      throw new Error('the store was read');
    },
  });
  return { runId: live.runId, store, live, failure: () => null };
}

/** A transport whose frames are each message after its id. */
const transport: Transport = {
  name: 'test',
  frames: ({ id, messages }: EventMessages) => messages.map((message) => [Buffer.from(`${id} `), message]),
  texts: (id, messages) => messages.map((message) => `${id} ${message}`),
  joinable: false,
};

/**
 * Delivers the run to `clients` clients at once, each send waiting until every client has reached the same event:
 * clients stuck on an event together, as clients that stop reading are. Gives what each sent.
 */
async function framesOf(source: SubscriptionSource, format: RelayFormat, clients = 2): Promise<Frame[][][]> {
  const arrived: number[] = [];
  const gates: (() => void)[][] = [];
  const client = async () => {
    const sent: Frame[][] = [];
    const signal = new AbortController().signal;
    const ended = await deliverEvents(
      source,
      { after: undefined, format, signal },
      transport,
      async (frames) => {
        const index = sent.length;
        sent.push([...frames]);
        arrived[index] = (arrived[index] ?? 0) + 1;
        const gate = new Promise<void>((open) => {
          gates[index] ??= [];
          gates[index].push(open);
        });
        if (arrived[index] === clients) for (const open of gates[index] ?? []) open();
        await gate;
        return true;
      },
    );
    expect(ended).toBe(true);
    return sent;
  };
  return Promise.all(Array.from({ length: clients }, client));
}

describe('event bytes', () => {
  test.each(['canonical', 'payload-envelope'] as const)(
    'of a large event in %s, are made once and shared by the clients sending it',
    async (format) => {
      const source = await endedLiveRun({}, largeRecords());
      const [first, second] = await framesOf(source, format);
      const large = (first ?? []).flatMap((frames, index) =>
        frames.some((frame) => frame.some((part) => part.length > 100_000)) ? [index] : [],
      );
      expect(large).toHaveLength(6);
      expect(second).toEqual(first);
      // The same buffers, not equal copies.
      for (const index of large) {
        const [mine, theirs] = [first?.[index] ?? [], second?.[index] ?? []];
        for (const [at, frame] of mine.entries()) expect(theirs[at]).toBe(frame);
      }
    },
  );

  test('of a large event read back from the log of an ended run are shared by the clients sending it', async () => {
    // Each client reads the log on its own (it came after the run); those stuck on the same event share it.
    const log = largeRecords();
    const store = {
      openLog: async () => ({
        read: async (buffer: Uint8Array, position: number) => {
          const bytes = log.subarray(position, position + buffer.length);
          buffer.set(bytes);
          return bytes.length;
        },
        close: async () => {},
      }),
    } as unknown as RunStore;
    const source: SubscriptionSource = {
      runId: '000000000-000000000001',
      store,
      live: undefined,
      failure: () => null,
    };
    const [first, second] = await framesOf(source, 'canonical');
    const large = (first ?? []).flatMap((frames, index) =>
      frames.some((frame) => frame.some((part) => part.length > 100_000)) ? [index] : [],
    );
    expect(large).toHaveLength(6);
    expect(second).toEqual(first);
    for (const index of large) expect(second?.[index]?.[0]?.[1]).toBe(first?.[index]?.[0]?.[1]);
  });

  test('in ai-sdk, whose messages depend on the events before, are made per client, the same', async () => {
    const source = await endedLiveRun();
    const [first, second] = await framesOf(source, 'ai-sdk');
    expect(second).toEqual(first);
    expect(second?.[0]?.[0]).not.toBe(first?.[0]?.[0]);
    expect(Buffer.concat(first?.at(-1)?.at(-1) ?? []).toString()).toMatch(/"type":"finish"/);
  });
});

describe('a resume of a run in flight', () => {
  test('after an id its ring holds is served from the ring alone, the same events a read from the start gives', async () => {
    const source = await endedLiveRun({ maxEvents: 8 });
    const reader = createLogEventReader();
    const all = [...reader.feed(readFileSync(DOCS_EXAMPLE)), ...reader.end(null)];
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
