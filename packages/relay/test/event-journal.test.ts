import { readFileSync } from 'node:fs';
import {
  compareEventIds,
  createLogEventReader,
  type EventId,
  type RunEvent,
  type RunFailure,
} from '@cursor-stream/relay';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { journalLine, openJournalCursor, writeJournal } from '../src/event-journal.ts';
import { createLiveRun } from '../src/live-run.ts';
import type { RunJournalReader } from '../src/run-store.ts';

/** Every event of a log, as the relay makes them (by default, the failure at the end as a run that was stopped). */
function eventsOf(
  log: Uint8Array,
  failure: RunFailure | null = { code: 'interrupted', message: 'stopped' },
): RunEvent[] {
  const reader = createLogEventReader();
  return [...reader.feed(log), ...reader.end(failure)];
}

/** A journal held in memory; `complete` as a run that has ended. */
function journalOf(bytes: Buffer, complete = true): RunJournalReader & { reads: number } {
  const journal = {
    complete,
    reads: 0,
    async read(buffer: Uint8Array, position: number) {
      journal.reads += 1;
      const part = bytes.subarray(position, position + buffer.length);
      buffer.set(part);
      return part.length;
    },
    size: async () => bytes.length,
    close: async () => {},
  };
  return journal;
}

async function readAll(
  journal: RunJournalReader,
  after: EventId | undefined,
): Promise<RunEvent[] | undefined> {
  const cursor = await openJournalCursor(journal, after);
  if (cursor === undefined) return undefined;
  const events: RunEvent[] = [];
  while (!cursor.finished) {
    const batch = await cursor.next();
    if (batch.length === 0 && !cursor.finished) break;
    events.push(...batch);
  }
  return events;
}

/** What a client compares: each event's seq, id, JSON and parsed event. */
const shown = (events: readonly RunEvent[]) =>
  events.map(({ seq, idText, json, event }) => ({ seq, idText, json, event }));

/** A log of many records of varied length, so that a journal spans many reads and lines cross them. */
function longLog(): Buffer {
  const session = { session_id: 's-journal' };
  const lines: object[] = [{ type: 'system', subtype: 'init', model: 'Auto', ...session }];
  for (let i = 0; i < 1500; i++) {
    const text = `${i} ${'x'.repeat((i * 7919) % 3000)}`;
    lines.push(
      i % 5 === 0
        ? { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] }, ...session }
        : { type: 'thinking', subtype: 'delta', text, ...session },
    );
  }
  return Buffer.from(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
}

describe("a run's journal", () => {
  const logs = [readFileSync(DOCS_EXAMPLE), longLog()];
  const runs = logs.map((log) => {
    const events = eventsOf(log);
    return { events, journal: Buffer.concat(events.map(journalLine)) };
  });

  test('gives back every event as it was made: seq, id, JSON and event', async () => {
    for (const { events, journal } of runs) {
      expect(shown((await readAll(journalOf(journal), undefined)) ?? [])).toEqual(shown(events));
    }
  });

  propertyTest.prop(
    [
      fc.nat({ max: 1 }),
      fc.oneof(
        fc.nat().map((index) => ({ honest: index })),
        fc.record({ offset: fc.nat({ max: 3_000_000 }), index: fc.nat({ max: 4 }) }),
      ),
    ],
    { numRuns: 100 },
  )(
    'after any id, honest or forged, gives exactly the events a read from the start gives after it',
    async (which, choice) => {
      const { events, journal } = runs[which] ?? { events: [], journal: Buffer.alloc(0) };
      const after: EventId =
        'honest' in choice ? (events[choice.honest % events.length]?.id ?? { offset: 0, index: 0 }) : choice;
      const expected = events.filter((event) => compareEventIds(event.id, after) > 0);
      expect(shown((await readAll(journalOf(journal), after)) ?? [])).toEqual(shown(expected));
    },
  );

  test('seeks: a resume near the end of a long journal reads a small part of it', async () => {
    const { events, journal } = runs[1] ?? { events: [], journal: Buffer.alloc(0) };
    const nearEnd = events.at(-10)?.id;
    const reader = journalOf(journal);
    expect(await readAll(reader, nearEnd)).toHaveLength(9);
    // A binary search: a few reads per halving, against the whole journal's hundreds.
    expect(journal.length / (64 * 1024)).toBeGreaterThan(30);
    expect(reader.reads).toBeLessThan(3 * Math.ceil(Math.log2(journal.length)));
  });

  test('a journal still being written gives what it has, waits at a cut line, and is no help past its end', async () => {
    const { events, journal } = runs[0] ?? { events: [], journal: Buffer.alloc(0) };
    const cut = journal.length - 10;
    const partial = journalOf(journal.subarray(0, cut), false);
    const cursor = await openJournalCursor(partial, undefined);
    const given = (await cursor?.next()) ?? [];
    expect(shown(given)).toEqual(shown(events.slice(0, -1)));
    expect(await cursor?.next()).toEqual([]);
    expect(cursor?.finished).toBe(false);
    expect(await openJournalCursor(partial, events.at(-1)?.id)).toBeUndefined();
  });

  test('gives a journal of large events in batches of about a megabyte, not 256 events at once', async () => {
    const session = { session_id: 's-batches' };
    const text = (index: number) => `${index} ${'b'.repeat(300_000)}`;
    const log = Buffer.from(
      Array.from(
        { length: 20 },
        (_, index) =>
          `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: text(index) }] }, ...session })}\n`,
      ).join(''),
    );
    const events = eventsOf(log);
    const cursor = await openJournalCursor(journalOf(Buffer.concat(events.map(journalLine))), undefined);
    const given: RunEvent[] = [];
    while (cursor !== undefined && !cursor.finished) {
      const batch = await cursor.next();
      const bytes = batch.reduce((sum, event) => sum + event.json.length, 0);
      // A megabyte read, and the rest of the line that crossed it.
      expect(bytes).toBeLessThanOrEqual(1024 * 1024 + 310_000);
      given.push(...batch);
    }
    expect(shown(given)).toEqual(shown(events));
  });

  propertyTest.prop([fc.nat({ max: 3 }), fc.nat({ max: 3 })], { numRuns: 8 })(
    'is written, large events a slice at a time, byte for byte as the lines of its events',
    async (padding, surrogates) => {
      // Texts of surrogate pairs longer than a slice, shifted so that slices end inside a pair and between pairs.
      const session = { session_id: 's-slices' };
      const record = (text: string) => ({
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'text', text }] },
        ...session,
      });
      const text = `${'p'.repeat(padding)}${'\u{1F600}'.repeat(600_000 + surrogates)}`;
      const log = Buffer.from(
        [record(text), record('small'), record(`é${text}`)]
          .map((line) => `${JSON.stringify(line)}\n`)
          .join(''),
      );
      const live = createLiveRun('000000000-000000000000', { append: async () => {}, close: async () => {} });
      const written: Buffer[] = [];
      let completed = false;
      const writing = writeJournal(
        live,
        {
          append: async (lines) => {
            written.push(...lines.map((line) => Buffer.from(line)));
          },
          complete: async () => {
            completed = true;
          },
          abandon: async () => {},
        },
        live.holdForJournal(),
      );
      live.append(log);
      await live.end(null);
      await writing;
      expect(completed).toBe(true);
      const expected = Buffer.concat(eventsOf(log, null).map(journalLine));
      expect(Buffer.concat(written).equals(expected)).toBe(true);
    },
  );

  test('of a run whose events outrun the ring is written whole: the ring waits for it, and the output for the ring', async () => {
    // Every record's event passes the ring's bound alone, and the journal writes slowly: without its hold, the ring
    // would have moved past what it wrote, and it would have been abandoned.
    const session = { session_id: 's-outrun' };
    const log = Buffer.from(
      Array.from({ length: 12 }, (_, index) => ({
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'text', text: `${index} ${'x'.repeat(20_000)}` }] },
        ...session,
      }))
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    );
    const live = createLiveRun(
      '000000000-000000000000',
      { append: async () => {}, close: async () => {} },
      { maxBytes: 4096, maxEvents: 2 },
      1024,
    );
    const written: Buffer[] = [];
    let outcome = 'writing';
    const hold = live.holdForJournal();
    const writing = writeJournal(
      live,
      {
        append: async (lines) => {
          await new Promise((resolve) => setTimeout(resolve, 2));
          written.push(...lines.map((line) => Buffer.from(line)));
        },
        complete: async () => {
          outcome = 'complete';
        },
        abandon: async () => {
          outcome = 'abandoned';
        },
      },
      hold,
    );
    // The agent's output, a chunk at a time, waiting when told to (as runAgent's stdout does).
    for (let at = 0; at < log.length; at += 4096) await live.append(log.subarray(at, at + 4096));
    await live.end(null);
    await writing;
    expect(outcome).toBe('complete');
    expect(Buffer.concat(written).equals(Buffer.concat(eventsOf(log, null).map(journalLine)))).toBe(true);
    // Once the journal let go, the ring keeps within its bounds again, besides the run's last events.
    expect(live.eventsFrom(0, 100)).toBeUndefined();
  });
});
