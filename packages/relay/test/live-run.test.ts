/**
 * A run's ring of recent events is bounded in bytes whatever its events' sizes: at most its bound plus the newest
 * event while the run goes, and its last events besides once it has ended. A large event's object is not kept with
 * it, only its JSON, and comes back the same when asked.
 */

import { createLogEventReader, type RunFailure } from '@cursor-stream/relay';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { createLiveRun, type LiveRun } from '../src/live-run.ts';

const SESSION = { session_id: 's-ring' };

/** A log whose assistant texts have the given lengths, between small thinking records. */
function logOf(textLengths: readonly number[]): Buffer {
  const lines: object[] = [{ type: 'system', subtype: 'init', model: 'Auto', ...SESSION }];
  for (const [index, length] of textLengths.entries()) {
    const text = `${index} ${'r'.repeat(length)}`;
    lines.push({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text }] },
      ...SESSION,
    });
    lines.push({ type: 'thinking', subtype: 'delta', text: `small ${index}`, ...SESSION });
  }
  return Buffer.from(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
}

/** A live run that logs nowhere. */
function liveRun(maxBytes: number, maxEvents?: number): LiveRun {
  return createLiveRun(
    '000000000-000000000000',
    { append: async () => {}, close: async () => {} },
    maxEvents === undefined ? { maxBytes } : { maxBytes, maxEvents },
  );
}

/** The events the ring holds now. */
function ringOf(live: LiveRun) {
  return live.eventsFrom(live.ringStart, Number.MAX_SAFE_INTEGER) ?? [];
}

/**
 * Feeds `log` in chunks of `chunkBytes`, then ends the run; `look` sees the ring after each change, and what it
 * returns is gathered (a listener's throw would be taken for a failure to read the log).
 */
async function runThrough<T>(
  live: LiveRun,
  log: Buffer,
  chunkBytes: number,
  failure: RunFailure | null,
  look: () => T,
): Promise<T[]> {
  const seen: T[] = [];
  const watch = () => {
    live.onChange(() => {
      seen.push(look());
      if (!live.ended) watch();
    });
  };
  watch();
  for (let at = 0; at < log.length; at += chunkBytes) await live.append(log.subarray(at, at + chunkBytes));
  await live.end(failure);
  return seen;
}

describe("a live run's ring", () => {
  propertyTest.prop(
    [
      fc.array(fc.integer({ min: 0, max: 120_000 }), { maxLength: 10 }),
      fc.integer({ min: 1, max: 60_000 }),
      fc.integer({ min: 1, max: 64 * 1024 }),
      fc.boolean(),
    ],
    { numRuns: 60 },
  )(
    'holds at most its byte bound plus the newest event, and once ended every one of its last events',
    async (textLengths, maxBytes, chunkBytes, failed) => {
      const log = logOf(textLengths);
      const failure = failed ? { code: 'interrupted', message: 'stopped' } : null;
      const live = liveRun(maxBytes);
      const seen = await runThrough(live, log, chunkBytes, failure, () => ({
        count: live.count,
        ring: ringOf(live).map((event) => ({ seq: event.seq, bytes: event.json.length })),
      }));
      // The same log read whole: its events, and those only its end gives (how the run ended).
      const reader = createLogEventReader();
      const fed = reader.feed(log).length;
      const all = fed + reader.end(failure).length;
      expect(live.count).toBe(all);
      expect(seen.length).toBeGreaterThan(0);
      for (const { count, ring } of seen) {
        // The newest event read is always there, so a client following the ring has it.
        expect(ring.at(-1)?.seq).toBe(count - 1);
        // Besides it and the run's last events, the ring holds at most its bound.
        const bounded = ring.filter((event) => event.seq !== count - 1 && event.seq < fed);
        expect(bounded.reduce((sum, event) => sum + event.bytes, 0)).toBeLessThanOrEqual(maxBytes);
      }
      expect(live.ringStart).toBeLessThanOrEqual(fed);
    },
  );

  test('keeps no more events than its bound, and always the newest', async () => {
    const live = liveRun(1 << 30, 3);
    const sizes = await runThrough(live, logOf([1, 2, 3, 4, 5, 6]), 100, null, () => ringOf(live).length);
    expect(sizes.length).toBeGreaterThan(5);
    for (const size of sizes.slice(0, -1)) expect(size).toBeLessThanOrEqual(3);
    expect(ringOf(live).at(-1)?.event.type).toBe('finish');
  });

  test("a large event kept in the ring gives the same event as the log's, from its JSON", async () => {
    const log = logOf([200_000, 10]);
    const live = liveRun(1 << 30);
    await runThrough(live, log, 1 << 20, null, () => undefined);
    const expected = createLogEventReader().feed(log);
    const large = ringOf(live).find((event) => event.json.length > 200_000);
    expect(large).toBeDefined();
    expect(large?.event).toEqual(expected.find((event) => event.seq === large?.seq)?.event);
  });
});
