import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { type ClientConnection, createClientQueue } from '../src/client-queue.ts';

/** A connection whose client takes what it was handed only when the test says so. */
function fakeConnection() {
  const written: { bytes: Uint8Array; last: boolean }[] = [];
  const waiting: (() => void)[] = [];
  const closeListeners: (() => void)[] = [];
  let closed = false;
  let stalls = 0;
  const connection: ClientConnection = {
    write(bytes, last, taken) {
      written.push({ bytes, last });
      waiting.push(taken);
    },
    get closed() {
      return closed;
    },
    onClose: (listener) => closeListeners.push(listener),
    stall() {
      stalls += 1;
      closed = true;
      for (const listener of closeListeners) listener();
    },
  };
  return {
    connection,
    written,
    /** The client takes the oldest `count` writes. */
    take(count: number) {
      for (const taken of waiting.splice(0, count)) taken();
    },
    get pending() {
      return waiting.length;
    },
    get stalls() {
      return stalls;
    },
    close() {
      closed = true;
      for (const listener of closeListeners) listener();
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("a client's queue", () => {
  propertyTest.prop(
    [
      fc.array(fc.integer({ min: 1, max: 300_000 }), { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 1, max: 512 * 1024 }),
      fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 30 }),
    ],
    { numRuns: 60 },
  )(
    'never holds more than its bound plus one slice, and hands over every byte once, in order, in slices of the message',
    async (sizes, maxBytes, takes) => {
      const fake = fakeConnection();
      const queue = createClientQueue(fake.connection, { maxBytes, stallMs: 60_000 });
      const messages = sizes.map((size, index) => new Uint8Array(size).fill(index + 1));
      let highest = 0;
      const sending = (async () => {
        for (const message of messages)
          expect(await queue.send([message.subarray(0, 7), message.subarray(7)])).toBe('sent');
      })();
      let done = false;
      void sending.then(() => {
        done = true;
      });
      for (let round = 0; !done; round++) {
        await tick();
        highest = Math.max(highest, queue.queuedBytes);
        fake.take(takes[round % takes.length] ?? 1);
      }
      await sending;
      expect(highest).toBeLessThan(maxBytes + 64 * 1024);
      // The slices are views of the messages (never copies), and together they are the messages.
      let at = 0;
      for (const message of messages) {
        let offset = 0;
        while (offset < message.length) {
          const part = fake.written[at++];
          expect(part?.bytes.buffer).toBe(message.buffer);
          offset += part?.bytes.length ?? Number.POSITIVE_INFINITY;
          expect(part?.last).toBe(offset === message.length);
        }
        expect(offset).toBe(message.length);
      }
      expect(at).toBe(fake.written.length);
    },
  );

  test('a client that takes nothing for stallMs with output waiting is stalled, once; one that left is closed', async () => {
    const stuck = fakeConnection();
    const queue = createClientQueue(stuck.connection, { maxBytes: 1000, stallMs: 50 });
    expect(await queue.send([new Uint8Array(999)])).toBe('sent');
    expect(await queue.send([new Uint8Array(200_000)])).toBe('stalled');
    expect(stuck.stalls).toBe(1);
    expect(await queue.send([new Uint8Array(10)])).toBe('stalled');
    expect(stuck.stalls).toBe(1);

    const leaving = fakeConnection();
    const other = createClientQueue(leaving.connection, { maxBytes: 1000, stallMs: 60_000 });
    expect(await other.send([new Uint8Array(1000)])).toBe('sent');
    const next = other.send([new Uint8Array(200_000)]);
    leaving.close();
    expect(await next).toBe('closed');
    expect(leaving.stalls).toBe(0);
  });

  test('a slow client that keeps taking is never stalled', async () => {
    const slow = fakeConnection();
    // It takes a slice every 15 ms; the whole message takes far longer than stallMs.
    const queue = createClientQueue(slow.connection, { maxBytes: 64 * 1024, stallMs: 300 });
    const timer = setInterval(() => slow.take(1), 15);
    try {
      expect(await queue.send([new Uint8Array(2_000_000)])).toBe('sent');
    } finally {
      clearInterval(timer);
    }
    expect(slow.stalls).toBe(0);
  });
});
