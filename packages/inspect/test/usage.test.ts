import type { SessionFacts } from '@cursor-stream/core/sessions';
import {
  createUsageOutput,
  createWallClock,
  parseTimeBound,
  resolveUsageOptions,
  type WallClock,
} from '@cursor-stream/inspect/usage';
import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';

function clockOf(zone: string): WallClock {
  const clock = createWallClock(zone);
  if (!clock.ok) throw new Error(clock.error.message);
  return clock.value;
}

/** A session's facts with what `usage` reads: its model, its usage and its first time. */
function facts(model: string | null, firstAtMs: number | null, inputTokens: number | null): SessionFacts {
  return {
    file: 'log.ndjson',
    line: 1,
    firstAtMs,
    lastAtMs: firstAtMs,
    problems: [],
    problemsOmitted: 0,
    summary: { model, sessionId: 's', usage: inputTokens === null ? null : { inputTokens } },
  } as unknown as SessionFacts;
}

describe('the wall clock of a zone', () => {
  test('reads an instant as the zone’s wall time, across a change of daylight saving time', () => {
    const paris = clockOf('Europe/Paris');
    // 2026-03-29 01:30 UTC is 03:30 in Paris (summer time began at 01:00 UTC); an hour before, 01:30 (winter).
    expect(paris.wallTime(Date.UTC(2026, 2, 29, 1, 30, 0, 5))).toBe('2026-03-29T03:30:00.005');
    expect(paris.wallTime(Date.UTC(2026, 2, 29, 0, 30))).toBe('2026-03-29T01:30:00.000');
    expect(clockOf('America/New_York').wallTime(Date.UTC(2026, 0, 1, 3))).toBe('2025-12-31T22:00:00.000');
  });

  propTest.prop([fc.integer({ min: 0, max: 8_000_000_000_000 })])('in UTC is the ISO time', (ms) => {
    expect(clockOf('UTC').wallTime(ms)).toBe(new Date(ms).toISOString().slice(0, 23));
  });

  /** The zone's wall time of an instant as `Intl` formats it, field by field: what the clock must always say. */
  const formats = new Map<string, Intl.DateTimeFormat>();
  function formatted(zone: string, ms: number): string {
    let format = formats.get(zone);
    if (format === undefined) {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
      formats.set(zone, format);
    }
    const parts = Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, part.value]));
    const year = String(Number(parts.year)).padStart(4, '0');
    const millis = String(ms % 1000).padStart(3, '0');
    return `${year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${millis}`;
  }

  const ZONES = Intl.supportedValuesOf('timeZone');
  const HOUR = 3_600_000;

  propTest.prop([
    fc.constantFrom(...ZONES),
    fc.integer({ min: -2_000_000_000_000, max: 8_000_000_000_000 }),
    fc.array(fc.integer({ min: -3 * HOUR, max: 3 * HOUR }), { maxLength: 20 }),
  ])('in any zone is what Intl formats, for instants read one after another', (zone, base, deltas) => {
    const clock = clockOf(zone);
    for (const ms of [base, ...deltas.map((delta) => base + delta)])
      expect(clock.wallTime(ms)).toBe(formatted(zone, ms));
  });

  test('is exact through every hour of years with changes within a UTC hour and odd offsets', () => {
    // St. John's changes at 02:00 local (:30 in UTC), Kathmandu is +05:45, Lord Howe moves by half an hour, and
    // Monrovia kept -00:44:30 until 1972.
    const spans: [string, number][] = [
      ['America/St_Johns', Date.UTC(2024, 0, 1)],
      ['Asia/Kathmandu', Date.UTC(1986, 0, 1)],
      ['Australia/Lord_Howe', Date.UTC(2025, 0, 1)],
      ['Africa/Monrovia', Date.UTC(1971, 6, 1)],
    ];
    for (const [zone, from] of spans) {
      const clock = clockOf(zone);
      for (let ms = from; ms < from + 366 * 24 * HOUR; ms += HOUR / 2 + 1001)
        expect(clock.wallTime(ms)).toBe(formatted(zone, ms));
    }
  });

  test('a name that is no zone is an error value', () => {
    const clock = createWallClock('Not/AZone');
    expect(clock.ok).toBe(false);
    if (!clock.ok) expect(clock.error.code).toBe('invalid-time-zone');
  });
});

describe('--since and --until', () => {
  test('a date alone takes its whole day; a time is taken to its minute or second', () => {
    expect(parseTimeBound('2026-05-01', 'since')).toEqual({ ok: true, value: '2026-05-01T00:00:00.000' });
    expect(parseTimeBound('20260501', 'until')).toEqual({ ok: true, value: '2026-05-01T23:59:59.999' });
    expect(parseTimeBound('2026-05-01T09:30', 'until')).toEqual({
      ok: true,
      value: '2026-05-01T09:30:59.999',
    });
    expect(parseTimeBound('2026-05-01 09:30:15', 'since')).toEqual({
      ok: true,
      value: '2026-05-01T09:30:15.000',
    });
  });

  test.each(['2026-02-29', '2026-13-01', '2026-05-01T24:00', 'yesterday', '', '2026-5-1'])(
    '%j is no date',
    (text) => {
      const bound = parseTimeBound(text, 'since');
      expect(bound.ok).toBe(false);
      if (!bound.ok) expect(bound.error.message).toMatch(/^--since ".*" is not a date/);
    },
  );
});

describe('usage periods in a zone', () => {
  test('weeks start on Monday, months and days are the zone’s, and the range is read in the zone', () => {
    // 2026-06-01 is a Monday; 23:30 UTC on 2026-05-31 (a Sunday) is already Monday 01:30 in Paris.
    const late = Date.UTC(2026, 4, 31, 23, 30);
    const resolved = (zone: string, by: 'day' | 'week' | 'month', since?: string) => {
      const options = resolveUsageOptions({ by, json: true, timeZone: zone, ...(since ? { since } : {}) });
      if (!options.ok) throw new Error(options.error.message);
      const output = createUsageOutput(options.value);
      output.add(facts('Auto', late, 10));
      return JSON.parse(output.end()) as Record<string, Array<Record<string, unknown>>>;
    };
    expect(resolved('UTC', 'day').daily?.[0]?.date).toBe('2026-05-31');
    expect(resolved('Europe/Paris', 'day').daily?.[0]?.date).toBe('2026-06-01');
    expect(resolved('UTC', 'week').weekly?.[0]?.week).toBe('2026-05-25');
    expect(resolved('Europe/Paris', 'week').weekly?.[0]?.week).toBe('2026-06-01');
    expect(resolved('UTC', 'month').monthly?.[0]?.month).toBe('2026-05');
    expect(resolved('Europe/Paris', 'month').monthly?.[0]?.month).toBe('2026-06');
    expect(resolved('UTC', 'month', '2026-06-01').monthly).toEqual([]);
    expect(resolved('Europe/Paris', 'month', '2026-06-01').monthly).toHaveLength(1);
  });

  test('a table of more models than a call can take arguments: each a row, no stack overflow', () => {
    const options = resolveUsageOptions({ by: 'model', json: false, timeZone: 'UTC' });
    if (!options.ok) throw new Error(options.error.message);
    const output = createUsageOutput(options.value);
    const models = 300_000;
    for (let index = 0; index < models; index++) output.add(facts(`m${index}`, null, 1));
    const lines = output.end().split('\n');
    expect(lines.filter((line) => /^\s*m\d+ /.test(line))).toHaveLength(models);
  });

  test('--order desc lists periods last first, sessions without a time still last', () => {
    const options = resolveUsageOptions({ by: 'month', json: true, timeZone: 'UTC', order: 'desc' });
    if (!options.ok) throw new Error(options.error.message);
    const output = createUsageOutput(options.value);
    for (const at of [Date.UTC(2026, 0, 5), null, Date.UTC(2026, 2, 5), Date.UTC(2026, 1, 5)])
      output.add(facts('Auto', at, 1));
    const document = JSON.parse(output.end()) as { monthly: Array<{ month: string | null }> };
    expect(document.monthly.map((row) => row.month)).toEqual(['2026-03', '2026-02', '2026-01', null]);
  });

  test('a range that ends before it starts is refused; one of a single day is kept', () => {
    const refused = resolveUsageOptions({ by: 'day', json: true, since: '2027-01-01', until: '2026-01-01' });
    expect(refused).toEqual({
      ok: false,
      error: {
        code: 'invalid-time',
        message: '--since 2027-01-01 is after --until 2026-01-01: no session starts between them',
      },
    });
    expect(resolveUsageOptions({ by: 'day', json: true, since: '2026-05-01', until: '2026-05-01' }).ok).toBe(
      true,
    );
    expect(
      resolveUsageOptions({ by: 'day', json: true, since: '2026-05-01T10:00', until: '2026-05-01T09:59' }).ok,
    ).toBe(false);
  });

  test('a model the table lacks has an unknown cost, and so has a period of sessions without usage', () => {
    const options = resolveUsageOptions({ by: 'month', json: true, timeZone: 'UTC' });
    if (!options.ok) throw new Error(options.error.message);
    const output = createUsageOutput(options.value);
    output.add(facts('Auto', Date.UTC(2026, 0, 5), 1_000_000));
    output.add(facts('no-such-model', Date.UTC(2026, 0, 6), 5));
    output.add(facts('Auto', Date.UTC(2026, 1, 6), null));
    output.add(facts('Auto', Date.UTC(2026, 2, 6), 1_000_000));
    const document = JSON.parse(output.end()) as {
      monthly: Array<{
        totalCost: number | null;
        modelBreakdowns: Array<{ modelName: string; cost: number | null }>;
      }>;
    };
    const [january, february, march] = document.monthly;
    expect(january?.totalCost).toBeNull();
    expect(january?.modelBreakdowns.map((model) => [model.modelName, model.cost])).toEqual([
      ['Auto', 1.25],
      ['no-such-model', null],
    ]);
    expect(february?.totalCost).toBeNull();
    expect(march?.totalCost).toBe(1.25);
  });
});

describe('the usage table', () => {
  propTest.prop([fc.array(fc.integer({ min: 0, max: 2 ** 40 }), { minLength: 1, maxLength: 3 })], {
    numRuns: 50,
  })(
    'keeps every count a cell of its own, however many digits: the cells read back are the counts',
    (counts) => {
      const options = resolveUsageOptions({ by: 'model', json: false, timeZone: 'UTC' });
      if (!options.ok) throw new Error(options.error.message);
      const output = createUsageOutput(options.value);
      for (const count of counts) output.add(facts('no-such-model', Date.UTC(2026, 0, 5), count));
      const total = output
        .end()
        .split('\n')
        .find((line) => line.startsWith('Total'));
      const cells = (total ?? '').trim().split(/\s+/).slice(1);
      const sum = counts.reduce((a, b) => a + b, 0);
      // Sessions, without usage, input, output, cache write, cache read, total, cost.
      expect(cells.slice(0, 7)).toEqual(
        [String(counts.length), '0', sum, 0, 0, 0, sum].map((n) => n.toLocaleString('en-US')),
      );
    },
  );
});
