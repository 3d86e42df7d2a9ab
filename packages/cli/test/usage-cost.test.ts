import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { runCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateCorpus } from '../../../corpus/generator/index.ts';

/** Rates in USD per million tokens, per model name of the logs; Auto is left out, so its cost is unknown. */
const RATES: Record<string, { input: number; output: number; cacheRead: number; cacheWrite: number }> = {
  'GPT-5': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25 },
  'Claude 4 Sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'Claude 4.6 Sonnet': { input: 3.5, output: 16, cacheRead: 0.35, cacheWrite: 4 },
  'gpt-5.3-codex': { input: 1.75, output: 14, cacheRead: 0.175, cacheWrite: 1.75 },
  'Composer 2.5': { input: 0.5, output: 2.5, cacheRead: 0.2, cacheWrite: 0.5 },
  'sonnet-4': { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
};
const UNPRICED = 'Auto';

/** A price table in the built-in format: one key per model name above, each name an alias of its key. */
function priceTable(): unknown {
  const models: Record<string, unknown> = {};
  const aliases: Record<string, string> = {};
  Object.entries(RATES).forEach(([name, rates], index) => {
    models[`test-model-${index}`] = { ...rates, source: 'this test', asOf: '2026-11-25' };
    aliases[name] = `test-model-${index}`;
  });
  return { unit: 'usd-per-million-tokens', models, aliases };
}

interface RawSession {
  model: string | null;
  firstMs: number | null;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number } | null;
}

/** Sessions read straight from the records, without the normalizer: cut at each init, timed by `timestamp_ms`. */
function rawSessions(text: string): RawSession[] {
  const sessions: RawSession[] = [];
  let current: RawSession | undefined;
  for (const line of text.split('\n')) {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof record !== 'object' || record === null) continue;
    if (record.type === 'system' && record.subtype === 'init') {
      current = { model: typeof record.model === 'string' ? record.model : null, firstMs: null, usage: null };
      sessions.push(current);
    }
    if (current === undefined) continue;
    if (typeof record.timestamp_ms === 'number')
      current.firstMs = Math.min(current.firstMs ?? record.timestamp_ms, record.timestamp_ms);
    if (record.type === 'result' && typeof record.usage === 'object' && record.usage !== null) {
      const usage = record.usage as Record<string, number | undefined>;
      current.usage = {
        input: usage.inputTokens ?? 0,
        output: usage.outputTokens ?? 0,
        cacheRead: usage.cacheReadTokens ?? 0,
        cacheWrite: usage.cacheWriteTokens ?? 0,
      };
    }
  }
  return sessions;
}

interface MonthExpected {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  /** `null` once a session of an unpriced model is in. */
  cost: number | null;
  models: Map<string, number | null>;
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

let scratch = '';
let texts: string[] = [];
let paths: string[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-usage-cost-'));
  const generatedText = [...generateCorpus({ seed: 14, targetBytes: 600_000, profile: 'small' })].join('');
  const generated = join(scratch, 'generated.ndjson');
  await writeFile(generated, generatedText);
  await writeFile(join(scratch, 'prices.json'), JSON.stringify(priceTable()));
  const official = join(REPO_ROOT, 'corpus', 'official');
  // The recordings that are records throughout: one with a line of the agent's own text exits 1 for it.
  const recordings = readdirSync(official)
    .filter((name) => name.endsWith('.ndjson'))
    .map((name) => join(official, name))
    .filter((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .every((line) => line === '' || isJson(line)),
    );
  paths = [generated, ...recordings];
  texts = [generatedText, ...recordings.map((path) => readFileSync(path, 'utf8'))];
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('usage --by month --since --json', () => {
  test('gives, per month from --since on, the tokens of the logs’ result.usage and the price table’s arithmetic', async () => {
    const since = '2026-05-01';
    const run = await runCli([
      'usage',
      '--by',
      'month',
      '--since',
      since,
      '--timezone',
      'UTC',
      '--prices',
      join(scratch, 'prices.json'),
      '--json',
      ...paths,
    ]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const document = JSON.parse(run.stdout) as {
      monthly: Array<{
        month: string | null;
        inputTokens: number;
        outputTokens: number;
        cacheCreationTokens: number;
        cacheReadTokens: number;
        totalCost: number | null;
        modelBreakdowns: Array<{ modelName: string | null; cost: number | null }>;
      }>;
      totals: { totalCost: number | null; inputTokens: number };
      timeZone: string;
      range: { sessionsOutsideRange: number; sessionsWithoutTime: number };
    };
    expect(document.timeZone).toBe('UTC');

    const expected = new Map<string, MonthExpected>();
    let outside = 0;
    for (const session of texts.flatMap(rawSessions)) {
      if (session.firstMs === null) continue;
      const iso = new Date(session.firstMs).toISOString();
      if (iso < `${since}T00:00:00.000Z`) {
        outside += 1;
        continue;
      }
      const month = iso.slice(0, 7);
      let entry = expected.get(month);
      if (entry === undefined) {
        entry = {
          inputTokens: 0,
          outputTokens: 0,
          cacheCreationTokens: 0,
          cacheReadTokens: 0,
          cost: 0,
          models: new Map(),
        };
        expected.set(month, entry);
      }
      if (session.usage === null) continue;
      const { input, output, cacheRead, cacheWrite } = session.usage;
      entry.inputTokens += input;
      entry.outputTokens += output;
      entry.cacheCreationTokens += cacheWrite;
      entry.cacheReadTokens += cacheRead;
      const rates = session.model === null ? undefined : RATES[session.model];
      const cost =
        rates === undefined
          ? null
          : (input * rates.input +
              output * rates.output +
              cacheRead * rates.cacheRead +
              cacheWrite * rates.cacheWrite) /
            1e6;
      entry.cost = entry.cost === null || cost === null ? null : entry.cost + cost;
      const model = session.model ?? '';
      const before = entry.models.has(model) ? (entry.models.get(model) ?? null) : 0;
      entry.models.set(model, before === null || cost === null ? null : before + cost);
    }

    expect(document.monthly.map((row) => row.month)).toEqual([...expected.keys()].sort());
    expect(document.range.sessionsOutsideRange).toBe(outside);
    expect(outside).toBeGreaterThan(0);
    let sawUnpriced = false;
    let sawPriced = false;
    for (const row of document.monthly) {
      const want = expected.get(row.month ?? '');
      expect(want, String(row.month)).toBeDefined();
      if (want === undefined) continue;
      expect(row).toMatchObject({
        inputTokens: want.inputTokens,
        outputTokens: want.outputTokens,
        cacheCreationTokens: want.cacheCreationTokens,
        cacheReadTokens: want.cacheReadTokens,
      });
      if (want.cost === null) {
        expect(row.totalCost).toBeNull();
      } else expect(row.totalCost).toBeCloseTo(want.cost, 12);
      for (const breakdown of row.modelBreakdowns) {
        const cost = want.models.get(breakdown.modelName ?? '');
        if (cost === undefined) continue; // a model whose sessions there reported no usage
        if (cost === null) {
          sawUnpriced = breakdown.modelName === UNPRICED || sawUnpriced;
          expect(breakdown.cost).toBeNull();
        } else {
          sawPriced = sawPriced || cost > 0;
          expect(breakdown.cost).toBeCloseTo(cost, 12);
        }
      }
    }
    // The logs hold both kinds, so both checks above ran.
    expect(sawPriced).toBe(true);
    expect(sawUnpriced).toBe(true);
    expect(document.totals.totalCost).toBeNull();
    expect(document.totals.inputTokens).toBe(
      [...expected.values()].reduce((sum, entry) => sum + entry.inputTokens, 0),
    );
  });

  test('a price table that is no table, a zone that is none and a bound that is no date are one-line usage errors', async () => {
    await writeFile(
      join(scratch, 'bad-prices.json'),
      '{"unit":"usd-per-million-tokens","models":{"x":{"input":"1"}}}',
    );
    const bad = await runCli(['usage', '--prices', join(scratch, 'bad-prices.json'), paths[0] ?? '']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^cursor-stream: .*bad-prices\.json: not a price table: models\["x"\]\.input is not a rate.*\n$/,
    );
    const zone = await runCli(['usage', '--timezone', 'Mars/Olympus', paths[0] ?? '']);
    expect([zone.code, zone.stderr]).toEqual([
      2,
      'cursor-stream: "Mars/Olympus" is not a time zone (an IANA name such as Europe/Paris, or UTC)\n',
    ]);
    const date = await runCli(['usage', '--until', '2026-02-30', paths[0] ?? '']);
    expect(date.code).toBe(2);
    expect(date.stderr).toMatch(/^cursor-stream: --until "2026-02-30" is not a date/);
    expect(zone.stdout + date.stdout + bad.stdout).toBe('');
  });

  test('a price table is read from a pipe, and one that never ends is refused at its bound', async () => {
    const endless = await runCli(['usage', '--prices', '/dev/zero', paths[0] ?? '']);
    expect([endless.code, endless.stdout, endless.stderr]).toEqual([
      2,
      '',
      'cursor-stream: /dev/zero: a price table is at most 4 MiB\n',
    ]);
    // The shape of `--prices <(curl …)`: a pipe with a writer, read to its end.
    const fifo = join(scratch, 'prices.fifo');
    execFileSync('mkfifo', [fifo]);
    const [piped] = await Promise.all([
      runCli(['usage', '--json', '--prices', fifo, paths[0] ?? '']),
      writeFile(fifo, JSON.stringify(priceTable())),
    ]);
    expect(piped.stderr).toBe('');
    expect(piped.code).toBe(0);
  });

  test('a table on a terminal is colored, piped it is plain, and an unknown cost never reads as $0', async () => {
    const args = [
      'usage',
      '--by',
      'model',
      '--timezone',
      'UTC',
      '--prices',
      join(scratch, 'prices.json'),
      ...paths,
    ];
    const plain = await runCli(args);
    const colored = await runCli(args, { env: { FORCE_COLOR: '1' } });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape that starts a style.
    expect(plain.stdout).not.toMatch(/\u001b\[/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape that starts a style.
    expect(colored.stdout).toMatch(/\u001b\[1m/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: styles taken off, the text is the same.
    expect(colored.stdout.replace(/\u001b\[\d+m/g, '')).toBe(plain.stdout);
    const unpriced = plain.stdout.split('\n').find((line) => line.startsWith(`${UNPRICED} `));
    expect(unpriced).toMatch(/ unknown$/);
  });
});
