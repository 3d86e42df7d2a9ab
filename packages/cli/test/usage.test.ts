import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_RECORD_TIME_MS } from '@cursor-stream/core';
import {
  createWallClock,
  USAGE_GROUPINGS,
  type UsageGrouping,
  type UsageTotals,
  type WallClock,
} from '@cursor-stream/inspect/usage';
import { CORPUS_DIR, REAL_CORPUS, REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { runCli } from '@cursor-stream/test-kit/run-cli';
import { fc, test as propTest } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateCorpus } from '../../../corpus/generator/index.ts';
import { writeUsage } from '../src/commands/usage/run.ts';
import { fakeIo } from './support.ts';

/** Token sums computed straight from the raw records, without the normalizer: what `usage` must agree with. */
interface RawUsage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  resultsWithUsage: number;
}

function rawUsageOf(texts: readonly string[]): RawUsage {
  const sums: RawUsage = {
    inputTokens: 0,
    outputTokens: 0,
    cacheCreationTokens: 0,
    cacheReadTokens: 0,
    resultsWithUsage: 0,
  };
  for (const text of texts) {
    for (const line of text.split('\n')) {
      let record: { type?: unknown; usage?: Record<string, number> };
      try {
        record = JSON.parse(line);
      } catch {
        continue; // a line of a record written over raw line breaks, or noise: never a result with usage here
      }
      if (record?.type !== 'result' || typeof record.usage !== 'object' || record.usage === null) continue;
      sums.resultsWithUsage += 1;
      sums.inputTokens += record.usage.inputTokens ?? 0;
      sums.outputTokens += record.usage.outputTokens ?? 0;
      sums.cacheCreationTokens += record.usage.cacheWriteTokens ?? 0;
      sums.cacheReadTokens += record.usage.cacheReadTokens ?? 0;
    }
  }
  return sums;
}

interface UsageJson {
  daily?: Array<UsageTotals & { date: string | null }>;
  weekly?: Array<UsageTotals & { week: string | null }>;
  monthly?: Array<UsageTotals & { month: string | null }>;
  sessions?: Array<UsageTotals & { sessionId: string | null }>;
  models?: Array<UsageTotals & { modelName: string | null }>;
  totals: UsageTotals;
}

function utcClock(): WallClock {
  const clock = createWallClock('UTC');
  if (!clock.ok) throw new Error(clock.error.message);
  return clock.value;
}

async function usageJson(
  paths: readonly string[],
  by: UsageGrouping,
  stdin: string[] = [],
): Promise<UsageJson> {
  const { io } = fakeIo(stdin);
  let text = '';
  await writeUsage(
    paths,
    { dialect: 'auto', stdin: io.stdin, by, json: true, clock: utcClock() },
    async (piece) => {
      text += piece;
    },
  );
  return JSON.parse(text) as UsageJson;
}

function rowsOf(document: UsageJson): UsageTotals[] {
  return document.daily ?? document.weekly ?? document.monthly ?? document.sessions ?? document.models ?? [];
}

function expectTotalsMatch(totals: UsageTotals, raw: RawUsage): void {
  expect(totals).toMatchObject({
    inputTokens: raw.inputTokens,
    outputTokens: raw.outputTokens,
    cacheCreationTokens: raw.cacheCreationTokens,
    cacheReadTokens: raw.cacheReadTokens,
    totalTokens: raw.inputTokens + raw.outputTokens + raw.cacheCreationTokens + raw.cacheReadTokens,
  });
  expect(totals.sessionCount - totals.sessionsWithoutUsage).toBe(raw.resultsWithUsage);
}

/** Each grouping's rows add up to the grand total. */
function expectRowsAddUp(document: UsageJson): void {
  const keys = [
    'inputTokens',
    'outputTokens',
    'cacheCreationTokens',
    'cacheReadTokens',
    'totalTokens',
    'sessionCount',
    'sessionsWithoutUsage',
  ] as const;
  for (const key of keys) {
    expect(rowsOf(document).reduce((sum, row) => sum + row[key], 0)).toBe(document.totals[key]);
  }
}

let scratch = '';
let generated = '';
let generatedText = '';

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-usage-'));
  generatedText = [...generateCorpus({ seed: 14, targetBytes: 600_000, profile: 'small' })].join('');
  generated = join(scratch, 'generated.ndjson');
  await writeFile(generated, generatedText);
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('usage totals equal the sum of the logs’ result.usage', () => {
  for (const by of USAGE_GROUPINGS) {
    test(`on a generated corpus and the committed recordings, --by ${by}`, async () => {
      const corpus = join(REPO_ROOT, 'corpus');
      // The Cursor recordings only: `corpus/foreign` holds other agents' logs, whose usage is not Cursor's.
      const folders = ['official', 'python-wrapper', 'payload-envelope'].map((dialect) =>
        join(corpus, dialect),
      );
      const committed = folders.flatMap((folder) =>
        readdirSync(folder)
          .filter((name) => name.endsWith('.ndjson'))
          .map((name) => readFileSync(join(folder, name), 'utf8')),
      );
      const document = await usageJson([generated, ...folders], by);
      const raw = rawUsageOf([generatedText, ...committed]);
      expect(raw.resultsWithUsage).toBeGreaterThan(5);
      expectTotalsMatch(document.totals, raw);
      expectRowsAddUp(document);
    });
  }

  test.skipIf(!REAL_CORPUS.present)(`on the real recordings ${REAL_CORPUS.needs}`, async () => {
    const texts = readdirSync(REAL_CORPUS.path)
      .filter((name) => name.endsWith('.ndjson'))
      .map((name) => readFileSync(join(REAL_CORPUS.path, name), 'utf8'));
    for (const by of USAGE_GROUPINGS) {
      const document = await usageJson([REAL_CORPUS.path], by);
      const raw = rawUsageOf(texts);
      expect(raw.resultsWithUsage).toBeGreaterThan(0);
      expectTotalsMatch(document.totals, raw);
      expectRowsAddUp(document);
    }
  });
});

/** An official-dialect session with the given usage, model and clock. */
function sessionLines(
  id: number,
  model: string | null,
  atMs: number | null,
  usage: Record<string, number> | null,
) {
  const session_id = `s-${id}`;
  const init = { type: 'system', subtype: 'init', session_id, ...(model === null ? {} : { model }) };
  const thinking = {
    type: 'thinking',
    subtype: 'completed',
    session_id,
    ...(atMs === null ? {} : { timestamp_ms: atMs }),
  };
  const result = {
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: 'ok',
    session_id,
    ...(usage === null ? {} : { usage }),
  };
  return [init, thinking, result].map((record) => JSON.stringify(record)).join('\n');
}

const usageArbitrary = fc.option(
  fc.record(
    {
      inputTokens: fc.nat(1e6),
      outputTokens: fc.nat(1e6),
      cacheReadTokens: fc.nat(1e6),
      cacheWriteTokens: fc.nat(1e6),
    },
    { requiredKeys: [] },
  ),
);
const sessionArbitrary = fc.record({
  model: fc.option(fc.constantFrom('Auto', 'Composer 2.5', 'gpt-5.3-codex')),
  atMs: fc.option(fc.integer({ min: 1.7e12, max: 1.8e12 })),
  usage: usageArbitrary,
});

describe('usage, for any sessions', () => {
  propTest.prop([fc.array(sessionArbitrary, { maxLength: 12 }), fc.constantFrom(...USAGE_GROUPINGS)], {
    numRuns: 50,
  })(
    'counts every session once, those without usage apart, and its groups add up to the totals',
    async (sessions, by) => {
      const log = sessions.map((session, id) => sessionLines(id, session.model, session.atMs, session.usage));
      const document = await usageJson(['-'], by, [`${log.join('\n')}\n`]);
      expectTotalsMatch(document.totals, rawUsageOf(log));
      expect(document.totals.sessionCount).toBe(sessions.length);
      expect(document.totals.sessionsWithoutUsage).toBe(
        sessions.filter((session) => session.usage === null).length,
      );
      expectRowsAddUp(document);
      if (by === 'day') {
        const days = new Set(
          sessions.map((s) => (s.atMs === null ? null : new Date(s.atMs).toISOString().slice(0, 10))),
        );
        expect(document.daily?.map((row) => row.date)).toEqual(
          [...days].sort((a, b) => (a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0)),
        );
      }
    },
  );
});

describe('cursor-stream usage', () => {
  test('prints a table with a total, and exits 2 naming a missing file while still counting the others', async () => {
    const run = await runCli(['usage', '--timezone', 'UTC', generated, join(scratch, 'missing.ndjson')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`cursor-stream: ${join(scratch, 'missing.ndjson')}: no such file\n`);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^Day \(UTC\)\s+Sessions\s+No usage\s+Input\s+Output\s+Cache write\s+Cache read\s+Total\s+Cost$/,
    );
    expect(lines.at(-1)).toMatch(/^Total\s+[\d,]+/);
    const raw = rawUsageOf([generatedText]);
    const total = raw.inputTokens + raw.outputTokens + raw.cacheCreationTokens + raw.cacheReadTokens;
    expect(lines.at(-1)?.trim().split(/\s+/).at(-2)).toBe(total.toLocaleString('en-US'));
  });

  test('prints no table of zeros when no log could be read, only why; --json still writes its document', async () => {
    const missing = join(scratch, 'missing.ndjson');
    const run = await runCli(['usage', missing]);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, '', `cursor-stream: ${missing}: no such file\n`]);
    const json = await runCli(['usage', '--json', missing]);
    expect(json.code).toBe(2);
    expect((JSON.parse(json.stdout) as UsageJson).totals.sessionCount).toBe(0);
  });

  test('--json --by model uses ccusage names; a bad --by is a usage error', async () => {
    const run = await runCli(['usage', '--json', '--by', 'model', generated]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const document = JSON.parse(run.stdout) as UsageJson;
    expect(Object.keys(document)).toEqual(['models', 'totals', 'timeZone']);
    expect(Object.keys(document.totals).sort()).toEqual(
      [
        'cacheCreationTokens',
        'cacheReadTokens',
        'inputTokens',
        'outputTokens',
        'sessionCount',
        'sessionsWithoutUsage',
        'totalCost',
        'totalTokens',
      ].sort(),
    );
    const bad = await runCli(['usage', '--by', 'year', generated]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^cursor-stream: option '--by <group>' argument 'year' is invalid/);
  });

  test('a log named twice, or also inside a folder given, is counted once, and each other name is said', async () => {
    const folder = join(scratch, 'named-twice');
    await mkdir(folder, { recursive: true });
    const log = join(folder, 'run.ndjson');
    await writeFile(log, generatedText);
    const once = await runCli(['usage', '--json', log]);
    for (const args of [
      [log, log],
      [folder, log],
    ]) {
      const run = await runCli(['usage', '--json', ...args]);
      expect([run.code, run.stdout]).toEqual([0, once.stdout]);
      expect(run.stderr).toMatch(
        new RegExp(`^cursor-stream: ${log}: (named twice|the same file as ${log}): read once\\n$`),
      );
    }
    const summary = await runCli(['summary', '--json', log, log]);
    expect([summary.code, summary.stdout]).toEqual([0, (await runCli(['summary', '--json', log])).stdout]);
  });

  test('counts a @cursor/sdk store’s runs once, from its run_events.ndjson, on the days they ran', async () => {
    // The store's folder as `JsonlLocalAgentStore` writes it: the runs as rows and as events, side by side.
    const store = join(scratch, 'sdk-store');
    await mkdir(store, { recursive: true });
    const sdk = join(CORPUS_DIR, 'cursor-sdk');
    await writeFile(join(store, 'run_events.ndjson'), readFileSync(join(sdk, 'store-run-events.ndjson')));
    await writeFile(join(store, 'runs.ndjson'), readFileSync(join(sdk, 'store-runs.ndjson')));
    const run = await runCli(['usage', '--json', '--timezone', 'UTC', store]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `cursor-stream: ${join(store, 'runs.ndjson')}: left out: the @cursor/sdk store rows of the runs in the run_events.ndjson beside it, counted from there\n`,
    );
    const document = JSON.parse(run.stdout) as UsageJson;
    expect(document.totals).toMatchObject({ sessionCount: 1, inputTokens: 22166, outputTokens: 31 });
    // The rows' `createdAt` dates the run: ISO 8601 in run_events.ndjson.
    expect(document.daily?.map((row) => row.date)).toEqual(['2026-11-25']);
    // Each file alone is counted: the rows name the run's model and its day too.
    const rows = await runCli([
      'usage',
      '--json',
      '--by',
      'model',
      '--timezone',
      'UTC',
      join(store, 'runs.ndjson'),
    ]);
    expect([rows.code, rows.stderr]).toEqual([0, '']);
    const byModel = JSON.parse(rows.stdout) as UsageJson;
    expect(byModel.models?.map((row) => [row.modelName, row.inputTokens])).toEqual([['composer-2', 22166]]);
  });
});

/** The log of the issue: a session whose one record's time no date can hold. */
function badTimeLog(session: string, time: string): string {
  return [
    `{"type":"system","subtype":"init","session_id":"${session}","model":"m","timestamp_ms":${time}}`,
    `{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"${session}","usage":{"inputTokens":3}}`,
    '',
  ].join('\n');
}

/** A token count as a log may hold one: a count, or a number no sum can take. */
const hostileCount = fc.oneof(
  fc.nat(1e6),
  fc.double({ min: 0, max: 1e6, noNaN: true }),
  fc.constantFrom(1e308, 1.5, 2 ** 53, 1.7976931348623157e308),
);
/** A record time as a log may hold one: a time, a number no date can hold, or a string of digits. */
const hostileTime = fc.oneof(
  fc.integer({ min: 1.7e12, max: 1.8e12 }),
  fc.constantFrom(1e300, 8_640_000_000_000_001, 1.8e13),
  fc.constantFrom('"9999999999999999"', '"1790000000000"', '"12a"', 'true', '-5'),
);

describe('usage of values no total or date can take', () => {
  propTest.prop(
    [
      fc.array(
        fc.record({
          time: fc.option(hostileTime),
          usage: fc.option(
            fc.record(
              { inputTokens: hostileCount, outputTokens: hostileCount, cacheReadTokens: hostileCount },
              { requiredKeys: [] },
            ),
          ),
        }),
        { minLength: 1, maxLength: 8 },
      ),
      fc.constantFrom(...USAGE_GROUPINGS),
    ],
    { numRuns: 60 },
  )(
    'sums only whole counts, writes finite whole numbers, and names every value left out by its line',
    async (sessions, by) => {
      const log = sessions.map((session, id) => {
        const time = session.time === null ? '' : `,"timestamp_ms":${session.time}`;
        const usage = session.usage === null ? '' : `,"usage":${JSON.stringify(session.usage)}`;
        return [
          `{"type":"system","subtype":"init","session_id":"s-${id}","model":"m"${time}}`,
          `{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s-${id}"${usage}}`,
        ].join('\n');
      });
      const { io } = fakeIo([`${log.join('\n')}\n`]);
      let text = '';
      const outcome = await writeUsage(
        ['-'],
        { dialect: 'auto', stdin: io.stdin, by, json: true, clock: utcClock() },
        async (piece) => {
          text += piece;
        },
      );
      const document = JSON.parse(text) as UsageJson;
      for (const row of [...rowsOf(document), document.totals]) {
        for (const value of Object.values(row)) {
          if (typeof value === 'number')
            expect(Number.isSafeInteger(value) && value >= 0, String(value)).toBe(true);
        }
      }
      const whole = (count: number | undefined) =>
        count !== undefined && Number.isSafeInteger(count) ? count : 0;
      expect(document.totals.inputTokens).toBe(
        sessions.reduce((sum, session) => sum + whole(session.usage?.inputTokens), 0),
      );
      const badCounts = sessions.flatMap((session) =>
        Object.values(session.usage ?? {}).filter((count) => !Number.isSafeInteger(count)),
      );
      const badTimes = sessions.filter((session) => {
        if (session.time === null) return false;
        const value: unknown = JSON.parse(String(session.time));
        const ms =
          typeof value === 'number'
            ? value
            : typeof value === 'string' && /^\d+$/.test(value)
              ? Number(value)
              : Number.NaN;
        return !(ms >= 0 && ms <= MAX_RECORD_TIME_MS);
      });
      const messages = outcome.inputProblems.map((problem) => problem.message);
      expect(messages).toHaveLength(badCounts.length + badTimes.length);
      for (const message of messages) expect(message).toMatch(/^line \d+: .*; left out$/);
    },
  );

  test('a log whose time no date can hold: the others are counted, and stderr names its file and line', async () => {
    const folder = join(scratch, 'bad-times');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'a.ndjson'), badTimeLog('a', '1e300'));
    await writeFile(join(folder, 'b.ndjson'), badTimeLog('b', '8640000000000001'));
    await writeFile(join(folder, 'c.ndjson'), badTimeLog('c', '"9999999999999999"'));
    await writeFile(join(folder, 'd.ndjson'), badTimeLog('d', '1790000000000'));
    for (const by of USAGE_GROUPINGS) {
      const run = await runCli(['usage', '--timezone', 'UTC', '--by', by, folder]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).not.toMatch(/RangeError|Invalid time value|\n\s+at /);
      expect(run.stdout).toMatch(/^Total\s+4\s+0\s+12\s/m);
      expect(run.stderr).toBe(
        [
          `cursor-stream: ${join(folder, 'a.ndjson')}: line 1: timestamp_ms 1e+300 is after 2554-07-21, the latest time a record may name; left out`,
          `cursor-stream: ${join(folder, 'b.ndjson')}: line 1: timestamp_ms 8640000000000001 is after 2554-07-21, the latest time a record may name; left out`,
          `cursor-stream: ${join(folder, 'c.ndjson')}: line 1: timestamp_ms "9999999999999999" is after 2554-07-21, the latest time a record may name; left out`,
          '',
        ].join('\n'),
      );
    }
    const json = await runCli(['usage', '--json', '--timezone', 'UTC', folder]);
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as UsageJson).daily?.map((row) => [row.date, row.sessionCount])).toEqual([
      ['2026-09-21', 1],
      [null, 3],
    ]);
  });

  test('--by session and --by model escape the control, C1 and bidi characters of ids and models', async () => {
    const hostile = 'id\u001b[31mred\u001b]0;title\u0007\u009b2J\u202egnp.exe';
    const log = [
      JSON.stringify({ type: 'system', subtype: 'init', session_id: hostile, model: hostile }),
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: 'ok',
        session_id: hostile,
        usage: { inputTokens: 1 },
      }),
      '',
    ].join('\n');
    for (const by of ['session', 'model']) {
      const run = await runCli(['usage', '--by', by, '-'], { input: log });
      expect(run.code).toBe(0);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach the terminal.
      expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      expect(run.stdout).toContain('id\\u001b[31mred\\u001b]0;title');
    }
  });
});
