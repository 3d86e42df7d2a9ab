import {
  checkUsage,
  createRecordTimeIndex,
  isTokenCount,
  MAX_RECORD_TIME_MS,
  readRecordTime,
  recordTimes,
} from '@cursor-stream/core/normalize';
import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { normalizeText } from './support.ts';

describe('recordTimes', () => {
  test('reads each dialect’s clocks', () => {
    expect(recordTimes({ type: 'thinking', subtype: 'delta', timestamp_ms: 1770823841542 })).toEqual({
      timestampMs: 1770823841542,
    });
    // The CLI from 2026.08 sends a call's own times as strings of digits.
    expect(
      recordTimes({
        type: 'tool_call',
        timestamp_ms: 1790758451145,
        tool_call: { readToolCall: {}, startedAtMs: '1790758449332', completedAtMs: '1790758451028' },
      }),
    ).toEqual({ timestampMs: 1790758451145, startedAtMs: 1790758449332, completedAtMs: 1790758451028 });
    expect(recordTimes({ type: 'system', timestamp: 1730000000100 })).toEqual({ timestampMs: 1730000000100 });
    expect(recordTimes({ type: 'system', timestamp: '2026-09-18T06:34:23.000Z' })).toEqual({
      timestampMs: Date.parse('2026-09-18T06:34:23.000Z'),
    });
    // The @cursor/sdk store's rows: ISO 8601 in run_events.ndjson, milliseconds in runs.ndjson.
    expect(recordTimes({ runId: 'r', createdAt: '2026-09-18T06:34:23.000Z' })).toEqual({
      timestampMs: Date.parse('2026-09-18T06:34:23.000Z'),
    });
    expect(recordTimes({ runId: 'r', createdAt: 1790000000000 })).toEqual({ timestampMs: 1790000000000 });
    expect(recordTimes({ timestamp: 5, createdAt: 7 })).toEqual({ timestampMs: 5 });
    expect(recordTimes({ type: 'tool_call', data: { tool_call: { startedAtMs: 5 } } })).toEqual({
      startedAtMs: 5,
    });
    expect(recordTimes({ type: 'tool_call', payload: { toolCall: { completedAtMs: '7' } } })).toEqual({
      completedAtMs: 7,
    });
  });

  test('names nothing for records without clocks', () => {
    for (const record of [null, 'text', [1], { type: 'user' }, { timestamp_ms: null }]) {
      expect(recordTimes(record)).toBeUndefined();
    }
  });

  test('names each field that holds no time as a problem, and reads timestamp in place of timestamp_ms', () => {
    expect(recordTimes({ timestamp_ms: null, timestamp: 'yesterday' })).toEqual({
      problems: [{ field: 'timestamp', message: 'timestamp "yesterday" is not a time' }],
    });
    expect(recordTimes({ timestamp_ms: -5, tool_call: { startedAtMs: '12a' } })).toEqual({
      problems: [
        {
          field: 'timestamp_ms',
          message: 'timestamp_ms -5 is before 1970, the earliest time a record may name',
        },
        { field: 'tool_call.startedAtMs', message: 'tool_call.startedAtMs "12a" is not a time' },
      ],
    });
    expect(recordTimes({ timestamp_ms: 1e300, timestamp: 1790000000000 })).toEqual({
      timestampMs: 1790000000000,
      problems: [
        {
          field: 'timestamp_ms',
          message: 'timestamp_ms 1e+300 is after 2554-07-21, the latest time a record may name',
        },
      ],
    });
    expect(recordTimes({ payload: { toolCall: { completedAtMs: '9999999999999999' } } })?.problems).toEqual([
      {
        field: 'payload.toolCall.completedAtMs',
        message:
          'payload.toolCall.completedAtMs "9999999999999999" is after 2554-07-21, the latest time a record may name',
      },
    ]);
    expect(recordTimes({ timestamp: '2026-13-45T00:00:00Z' })?.problems?.[0]?.message).toBe(
      'timestamp "2026-13-45T00:00:00Z" is not a valid date',
    );
  });
});

describe('readRecordTime', () => {
  const anyValue = fc.oneof(
    fc.double(),
    fc.integer(),
    fc.bigInt({ min: 0n, max: 10n ** 25n }).map(String),
    fc.string(),
    fc
      .date({ noInvalidDate: false })
      .map((date) => (Number.isNaN(date.getTime()) ? 'x' : date.toISOString())),
    fc.constantFrom(
      1e300,
      8_640_000_000_000_001,
      MAX_RECORD_TIME_MS,
      MAX_RECORD_TIME_MS + 1,
      -0,
      true,
      {},
      [],
    ),
  );

  propTest.prop([anyValue, fc.boolean()])(
    'never throws; every time it gives is a date and fits 64-bit nanoseconds, every other value is a problem',
    (value, iso) => {
      const time = readRecordTime(value, 'field', iso);
      expect(time).toBeDefined();
      if (time?.ok) {
        expect(time.ms).toBeGreaterThanOrEqual(0);
        expect(() => new Date(time.ms).toISOString()).not.toThrow();
        expect(BigInt(Math.floor(time.ms)) * 1_000_000n).toBeLessThan(2n ** 64n);
      } else {
        expect(time?.problem.field).toBe('field');
        expect(time?.problem.message.startsWith('field ')).toBe(true);
        expect(time?.problem.message.length).toBeLessThan(120);
      }
    },
  );

  test('an absent field is no time and no problem', () => {
    expect(readRecordTime(undefined, 'f')).toBeUndefined();
    expect(readRecordTime(null, 'f')).toBeUndefined();
    expect(readRecordTime(1790000000000.5, 'f')).toEqual({ ok: true, ms: 1790000000000.5 });
    expect(readRecordTime(MAX_RECORD_TIME_MS, 'f')).toEqual({ ok: true, ms: MAX_RECORD_TIME_MS });
    expect(new Date(MAX_RECORD_TIME_MS).toISOString()).toBe('2554-07-21T23:34:33.709Z');
  });
});

describe('checkUsage', () => {
  propTest.prop([
    fc.record(
      {
        inputTokens: fc.oneof(fc.nat(), fc.double({ min: 0, noNaN: true })),
        outputTokens: fc.oneof(fc.nat(), fc.double({ min: 0, noNaN: true })),
        cacheReadTokens: fc.constantFrom(1e308, 1.5, 2 ** 53, 7),
      },
      { requiredKeys: [] },
    ),
  ])('keeps the whole counts, and says why each other one is left out', (usage) => {
    const checked = checkUsage(usage);
    const fields = Object.entries(usage);
    const whole = fields.filter(([, count]) => isTokenCount(count));
    expect(checked.usage).toEqual(whole.length === 0 ? null : Object.fromEntries(whole));
    expect(checked.problems).toHaveLength(fields.length - whole.length);
    for (const [field, count] of fields) {
      if (!isTokenCount(count)) expect(checked.problems.join('\n')).toContain(`usage.${field} ${count} `);
    }
  });
});

/** A CLI log of one session whose result reports `usage`. */
function resultLog(usage: object): string {
  return `{"type":"system","subtype":"init","session_id":"s","model":"m"}\n{"type":"result","subtype":"success","is_error":false,"result":"","session_id":"s","usage":${JSON.stringify(usage)}}\n`;
}

/** The usage of the first `finish` a log normalizes to. */
function finishUsageOf(log: string) {
  const finish = normalizeText(log).find((event) => event.type === 'finish');
  return finish?.type === 'finish' ? finish.usage : undefined;
}

describe('token counts a log gets wrong', () => {
  test('reach checkUsage from every dialect, which names each one left out', () => {
    const usage = { inputTokens: -5, outputTokens: '12', cacheReadTokens: 2.5, cacheWriteTokens: 'many' };
    const logs = [
      // The CLI's result, and a @cursor/sdk store's run row. `many` is no number at all: the CLI's result keeps it as
      // the log wrote it, for it to be named; the SDK's counts are typed, and one of another type is none.
      [
        `{"type":"system","subtype":"init","session_id":"s","model":"m"}\n{"type":"result","subtype":"success","is_error":false,"result":"","session_id":"s","usage":${JSON.stringify(usage)}}\n`,
        { unreadable: { cacheWriteTokens: '"many"' } },
        ['usage.cacheWriteTokens "many" is not a number of tokens'],
      ],
      [`${JSON.stringify({ runId: 'r', agentId: 'a', turnNumber: 1, status: 'finished', usage })}\n`, {}, []],
    ] as const;
    for (const [log, unreadable, unreadableProblems] of logs) {
      const finish = normalizeText(log).find((event) => event.type === 'finish');
      // As the log says, a string of digits read as the 64-bit integer it stands for.
      expect(finish?.type === 'finish' && finish.usage).toEqual({
        inputTokens: -5,
        outputTokens: 12,
        cacheReadTokens: 2.5,
        ...unreadable,
      });
      const checked = checkUsage(finish?.type === 'finish' ? finish.usage : undefined);
      expect(checked.usage).toEqual({ outputTokens: 12 });
      expect(checked.problems).toEqual([
        'usage.inputTokens -5 is negative, not a number of tokens',
        'usage.cacheReadTokens 2.5 is not a whole number of tokens',
        ...unreadableProblems,
      ]);
    }
  });

  test('given in no form a count is read from, are named too, each as the start of its JSON text', () => {
    const usage = {
      inputTokens: 100,
      outputTokens: true,
      cacheReadTokens: [5],
      cacheWriteTokens: 'x'.repeat(100),
    };
    const log = resultLog(usage);
    const checked = checkUsage(finishUsageOf(log));
    expect(checked.usage).toEqual({ inputTokens: 100 });
    expect(checked.problems).toEqual([
      'usage.outputTokens true is not a number of tokens',
      'usage.cacheReadTokens [5] is not a number of tokens',
      `usage.cacheWriteTokens "${'x'.repeat(39)}… is not a number of tokens`,
    ]);
    // A count said to be unknown (`null`) is none, and no problem.
    expect(finishUsageOf(log.replace('"outputTokens":true', '"outputTokens":null'))?.unreadable).toEqual({
      cacheReadTokens: '[5]',
      cacheWriteTokens: `"${'x'.repeat(39)}…`,
    });
  });

  test('reach it also when written as numbers in strings: a negative, a fractional or too large a one', () => {
    const usage = {
      inputTokens: '-5',
      outputTokens: '99999999999999999999999',
      cacheReadTokens: '2.5e0',
      cacheWriteTokens: '7',
    };
    const log = resultLog(usage);
    const checked = checkUsage(finishUsageOf(log));
    expect(checked.usage).toEqual({ cacheWriteTokens: 7 });
    expect(checked.problems).toEqual([
      'usage.inputTokens -5 is negative, not a number of tokens',
      'usage.outputTokens 1e+23 is more tokens than can be counted exactly',
      'usage.cacheReadTokens 2.5 is not a whole number of tokens',
    ]);
  });
});

describe('createRecordTimeIndex', () => {
  test('gives a record’s times to each of its events, and forgets records behind the line read', () => {
    const index = createRecordTimeIndex();
    index.observe(1, { timestamp_ms: 10 });
    index.observe(2, { type: 'user' });
    index.observe(3, { timestamp_ms: 30 });
    expect(index.at(1)).toEqual({ timestampMs: 10 });
    expect(index.at(1)).toEqual({ timestampMs: 10 });
    expect(index.at(2)).toBeUndefined();
    expect(index.at(3)).toEqual({ timestampMs: 30 });
    expect(index.at(1)).toBeUndefined();
  });

  /** What the index gives, written out: lines let go of in the order they came, up to the one asked for. */
  function indexModel() {
    const byLine = new Map<
      number,
      { offset: number | undefined; times: unknown; others: Map<number, unknown> }
    >();
    return {
      observe(line: number, record: unknown, offset?: number) {
        const times = recordTimes(record);
        const first = byLine.get(line);
        if (first === undefined || first.offset === offset) {
          if (times !== undefined) byLine.set(line, { offset, times, others: first?.others ?? new Map() });
          else if (first !== undefined) byLine.delete(line);
        } else if (times !== undefined && offset !== undefined) first.others.set(offset, times);
      },
      at(line: number, offset?: number) {
        for (const seen of [...byLine.keys()]) {
          if (seen >= line) break;
          byLine.delete(seen);
        }
        const entry = byLine.get(line);
        if (entry === undefined) return undefined;
        if (entry.offset === undefined || offset === undefined || entry.offset === offset) return entry.times;
        return entry.others.get(offset);
      },
    };
  }

  // Few lines and offsets, so that a line is often observed again, left without times and set again.
  const line = fc.integer({ min: 1, max: 3 });
  const offset = fc.constantFrom(undefined, undefined, 0, 1);
  const step = fc.oneof(
    fc.record({ kind: fc.constant('observe' as const), line, offset, ms: fc.constantFrom(undefined, 5, 7) }),
    fc.record({ kind: fc.constant('at' as const), line, offset }),
  );

  // Lines mostly come in order, but a record may be observed again (with or without times) and lines may be asked
  // for out of order; a long run of lines in order comes first, as a log's do.
  propTest.prop([fc.array(step, { minLength: 20, maxLength: 80 }), fc.integer({ min: 0, max: 3000 })])(
    'gives each record its own times, whatever the order of records and lookups, and a record observed again leaves the others on its line their times',
    (steps, inOrder) => {
      const index = createRecordTimeIndex();
      const model = indexModel();
      for (let line = 1; line <= inOrder; line++) {
        index.observe(line, { timestamp_ms: line });
        model.observe(line, { timestamp_ms: line });
        expect(index.at(line)).toEqual(model.at(line));
      }
      for (const step of steps) {
        const line = inOrder + step.line;
        if (step.kind === 'at') expect(index.at(line, step.offset)).toEqual(model.at(line, step.offset));
        else {
          // A record without times leaves a line's times behind when observed again at its offset.
          const record = step.ms === undefined ? { type: 'user' } : { timestamp_ms: step.ms };
          index.observe(line, record, step.offset);
          model.observe(line, record, step.offset);
        }
      }
    },
  );

  test('tells apart the records that start on one line by their offsets', () => {
    const index = createRecordTimeIndex();
    index.observe(1, { timestamp_ms: 10 }, 1);
    index.observe(1, { type: 'user' }, 40);
    index.observe(1, { timestamp_ms: 30 }, 80);
    expect(index.at(1, 1)).toEqual({ timestampMs: 10 });
    expect(index.at(1, 40)).toBeUndefined();
    expect(index.at(1, 80)).toEqual({ timestampMs: 30 });
    expect(index.at(1, 120)).toBeUndefined();
  });
});
