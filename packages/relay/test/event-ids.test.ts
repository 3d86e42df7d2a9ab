import { readFileSync } from 'node:fs';
import type { CanonicalEvent } from '@cursor-stream/core';
import {
  compareEventIds,
  createLogEventReader,
  type EventId,
  formatEventId,
  parseEventId,
  type RunEvent,
} from '@cursor-stream/relay';
import { cutAt } from '@cursor-stream/test-kit/chunking';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';

describe('event ids', () => {
  test.each([
    ['0', { offset: 0, index: 0 }],
    ['1234', { offset: 1234, index: 0 }],
    ['1234:2', { offset: 1234, index: 2 }],
  ])('%s parses and formats back', (text, id) => {
    expect(parseEventId(text)).toEqual(id);
    expect(formatEventId(id)).toBe(text);
  });

  test.each(['', 'abc', '-1', '01', '1:0', '1:', ':1', '1:2:3', '1e3', '99999999999999999999', '../x'])(
    '%j is not an id',
    (text) => {
      expect(parseEventId(text)).toBeUndefined();
    },
  );

  propertyTest.prop([fc.nat(), fc.nat({ max: 1000 })])('format and parse are inverse', (offset, index) => {
    expect(parseEventId(formatEventId({ offset, index }))).toEqual({ offset, index });
  });
});

function readAll(
  chunks: readonly Uint8Array[],
  failure: { code: string; message: string } | null,
): RunEvent[] {
  const reader = createLogEventReader();
  return [...chunks.flatMap((chunk) => reader.feed(chunk)), ...reader.end(failure)];
}

const ids = (events: readonly RunEvent[]): EventId[] => events.map((event) => event.id);

describe("a run's log read into events", () => {
  const recording = readFileSync(DOCS_EXAMPLE);

  propertyTest.prop([fc.array(fc.nat(), { maxLength: 12 }), fc.nat()])(
    'gives the same events and ids whatever the chunking, and ids that always increase (also for a cut log)',
    (cuts, cut) => {
      const whole = readAll([recording], null);
      expect(readAll(cutAt(recording, cuts), null)).toEqual(whole);
      const partial = recording.subarray(0, cut % (recording.length + 1));
      const events = readAll(cutAt(partial, cuts), { code: 'interrupted', message: 'stopped' });
      const list = ids(events);
      for (let i = 1; i < list.length; i++)
        expect(compareEventIds(list[i - 1] as EventId, list[i] as EventId)).toBeLessThan(0);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    },
  );

  test('a record’s own offset is its first event’s id; a synthesized event follows its predecessor', () => {
    const events = readAll([recording.subarray(0, 700)], { code: 'interrupted', message: 'stopped' });
    for (const { id, event } of events)
      if (event.loc !== undefined && id.index === 0) expect(id.offset).toBe(event.loc.offset);
    const tail = events.slice(-2);
    const before = events.at(-3)?.id;
    expect(tail.map(({ event }) => event.type)).toEqual(['error', 'finish']);
    expect(tail.map(({ idText }) => idText)).toEqual([
      `${before?.offset}:${(before?.index ?? 0) + 1}`,
      `${before?.offset}:${(before?.index ?? 0) + 2}`,
    ]);
    expect(tail[0]?.event).toMatchObject({
      type: 'error',
      code: 'interrupted',
      message: 'stopped',
    } satisfies Partial<CanonicalEvent>);
    expect(tail[1]?.event).toMatchObject({ type: 'finish', finishReason: 'incomplete', isError: true });
  });

  test('an empty log of a failed run still ends with its reason and a finish', () => {
    const events = readAll([], { code: 'spawn-failed', message: 'no cursor-agent' });
    expect(events.map(({ idText, event }) => [idText, event.type])).toEqual([
      ['0', 'error'],
      ['0:1', 'finish'],
    ]);
  });

  test('a failed run whose log holds no record still ends with its reason and a finish, after its lines', () => {
    const failure = { code: 'exit-nonzero', message: 'panic: runtime error: index out of range' };
    const events = readAll([new TextEncoder().encode('panic: runtime error: index out of range\n')], failure);
    expect(events.map(({ event }) => event.type)).toEqual(['invalid-line', 'error', 'finish']);
    expect(events[1]?.event).toMatchObject({ type: 'error', ...failure });
    expect(events[2]?.event).toMatchObject({ type: 'finish', finishReason: 'incomplete', isError: true });
  });

  test('a failed run whose log ended its session says nothing more: the log said how it ended', () => {
    const whole = readAll([recording], null);
    const failed = readAll([recording], { code: 'exit-nonzero', message: 'exit 1' });
    expect(whole.at(-1)?.event.type).toBe('finish');
    expect(failed).toEqual(whole);
  });
});
