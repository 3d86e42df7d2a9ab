import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test as propTest } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateCorpus } from '../../../corpus/generator/index.ts';
import { USAGE_GROUPINGS, type UsageGrouping, type UsageTotals, writeUsage } from '../src/report/index.ts';
import { REAL_CORPUS, REPO_ROOT, runCli } from './run-cli.ts';
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
  sessions?: Array<UsageTotals & { sessionId: string | null }>;
  models?: Array<UsageTotals & { modelName: string | null }>;
  totals: UsageTotals;
}

async function usageJson(
  paths: readonly string[],
  by: UsageGrouping,
  stdin: string[] = [],
): Promise<UsageJson> {
  const { io } = fakeIo(stdin);
  let text = '';
  await writeUsage(paths, { dialect: 'auto', stdin: io.stdin, by, json: true }, async (piece) => {
    text += piece;
  });
  return JSON.parse(text) as UsageJson;
}

function rowsOf(document: UsageJson): UsageTotals[] {
  return document.daily ?? document.sessions ?? document.models ?? [];
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

  test.skipIf(!REAL_CORPUS.present)(
    `on the real recordings${REAL_CORPUS.present ? '' : ' (skipped: ../shared/real-corpus is missing)'}`,
    async () => {
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
    },
  );
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
    const run = await runCli(['usage', generated, join(scratch, 'missing.ndjson')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`cursor-stream: ${join(scratch, 'missing.ndjson')}: no such file\n`);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^Day \(UTC\)\s+Sessions\s+No usage\s+Input\s+Output\s+Cache write\s+Cache read\s+Total$/,
    );
    expect(lines.at(-1)).toMatch(/^Total\s+[\d,]+/);
    const raw = rawUsageOf([generatedText]);
    const total = raw.inputTokens + raw.outputTokens + raw.cacheCreationTokens + raw.cacheReadTokens;
    expect(lines.at(-1)?.trim().split(/\s+/).at(-1)).toBe(total.toLocaleString('en-US'));
  });

  test('--json --by model uses ccusage names; a bad --by is a usage error', async () => {
    const run = await runCli(['usage', '--json', '--by', 'model', generated]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const document = JSON.parse(run.stdout) as UsageJson;
    expect(Object.keys(document)).toEqual(['models', 'totals']);
    expect(Object.keys(document.totals).sort()).toEqual(
      [
        'cacheCreationTokens',
        'cacheReadTokens',
        'inputTokens',
        'outputTokens',
        'sessionCount',
        'sessionsWithoutUsage',
        'totalTokens',
      ].sort(),
    );
    const bad = await runCli(['usage', '--by', 'week', generated]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^cursor-stream: option '--by <group>' argument 'week' is invalid/);
  });
});
