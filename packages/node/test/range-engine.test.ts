/**
 * The range engine and the worker pool with modules of their own: a worker runs plain JavaScript, so the workers and
 * the test's consumer and runner are bundled first, as a program using the engine bundles them. What a log read in
 * ranges gives is what one thread reading it whole gives, whatever the consumer.
 */

import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { CanonicalEvent } from '@cursor-stream/core';
import { type LogStats, readLog, YOUNG_GENERATION_CAP_BYTES } from '@cursor-stream/node/logs';
import { type RangeRead, readInRanges, runInWorkers } from '@cursor-stream/node/ranges';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventLine } from './fixtures/line-consumer.ts';
import type { SizeOutcome } from './fixtures/size-runner.ts';

const scratch = mkdtempSync(join(tmpdir(), 'cursor-stream-ranges-'));
const bundled = (name: string) => new URL(`file://${join(scratch, 'bundle', `${name}.js`)}`);

beforeAll(async () => {
  await build({
    entryPoints: {
      'range-worker': join(import.meta.dirname, '../src/ranges/range-worker.ts'),
      'pool-worker': join(import.meta.dirname, '../src/ranges/pool-worker.ts'),
      'line-consumer': join(import.meta.dirname, 'fixtures/line-consumer.ts'),
      'young-consumer': join(import.meta.dirname, 'fixtures/young-consumer.ts'),
      'size-runner': join(import.meta.dirname, 'fixtures/size-runner.ts'),
    },
    outdir: join(scratch, 'bundle'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    conditions: ['@cursor-stream/source'],
    logLevel: 'warning',
  });
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The repository's recordings of one dialect, in a fixed order. */
const RECORDINGS = readdirSync(join(CORPUS_DIR, 'official'))
  .filter((name) => name.endsWith('.ndjson'))
  .sort()
  .map((name) => readFileSync(join(CORPUS_DIR, 'official', name), 'utf8'))
  .map((text) => (text.endsWith('\n') ? text : `${text}\n`));

/** What one thread reading the whole log gives: the consumer's lines, and the stats. */
async function oneThread(path: string, label: string): Promise<{ text: string; stats: LogStats }> {
  const events: CanonicalEvent[] = [];
  const read = await readLog(path, { onEvents: (batch) => void events.push(...batch) });
  if (!read.ok) throw new Error(read.error.message);
  return { text: events.map((event) => eventLine(label, event)).join(''), stats: read.value };
}

/** The log read in ranges on `jobs` workers, cut at every session start, with the consumer's lines and results. */
async function inRanges(path: string, label: string, jobs = 2) {
  const lines: string[] = [];
  const results: unknown[] = [];
  const read = await readInRanges(path, {
    jobs,
    splitBytes: 1,
    consumer: bundled('line-consumer'),
    setup: { label },
    workerUrl: bundled('range-worker'),
    async items(items) {
      for (const item of items) lines.push(item as string);
    },
    result: (result) => void results.push(result),
  });
  return { read, text: lines.join(''), results };
}

function written(read: Awaited<ReturnType<typeof readInRanges>>): RangeRead {
  if (read === null || !read.ok) throw new Error(`not read in ranges: ${JSON.stringify(read)}`);
  return read.value;
}

describe('readInRanges', () => {
  propertyTest.prop(
    [
      fc.array(fc.nat(RECORDINGS.length - 1), { minLength: 2, maxLength: 12 }),
      fc.integer({ min: 2, max: 3 }),
      fc.constantFrom('', '\r'),
    ],
    { numRuns: 8 },
  )(
    "gives the consumer's items and one thread's stats, in file order, for any sessions joined",
    async (picks, jobs, carriageReturn) => {
      const path = join(scratch, 'joined.ndjson');
      writeFileSync(
        path,
        picks.map((pick) => RECORDINGS[pick]?.replaceAll('\n', `${carriageReturn}\n`)).join(''),
      );
      const one = await oneThread(path, 'x');
      const split = await inRanges(path, 'x', jobs);
      const { stats, counts } = written(split.read);
      expect(split.text).toBe(one.text);
      expect(stats).toEqual(one.stats);
      expect(split.results.reduce((sum: number, events) => sum + (events as number), 0)).toBe(
        one.stats.events,
      );
      expect(counts.written).toBe(split.results.length);
    },
  );

  test('hands the setup to the consumer on each worker', async () => {
    const path = join(scratch, 'labelled.ndjson');
    writeFileSync(path, RECORDINGS.join(''));
    const split = await inRanges(path, 'labelled');
    expect(written(split.read).counts.written).toBeGreaterThan(1);
    expect(split.text).toBe((await oneThread(path, 'labelled')).text);
  });

  test('cuts after a session whose last line is taken without a value, as after any other record', async () => {
    // Sessions cut off while thinking: the deltas after the first are taken by a learnt layout and never given to
    // `onRecord`, so the cut after each session is known from the last delta's event.
    const session = (id: string) =>
      [
        {
          type: 'system',
          subtype: 'init',
          apiKeySource: 'login',
          cwd: '/w',
          session_id: id,
          model: 'm',
          permissionMode: 'default',
        },
        { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'go' }] }, session_id: id },
        // Only the CLI marks a model call: the log is known to be the official dialect's, as a split needs.
        {
          type: 'assistant',
          message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
          session_id: id,
          model_call_id: `${id}-call`,
        },
        ...['a', 'b', 'c'].map((text, at) => ({
          type: 'thinking',
          subtype: 'delta',
          text,
          session_id: id,
          timestamp_ms: 1770823434041 + at,
        })),
      ]
        .map((record) => `${JSON.stringify(record)}\n`)
        .join('');
    const sessions = ['s1', 's2', 's3', 's4', 's5', 's6'];
    const path = join(scratch, 'thinking-to-the-end.ndjson');
    writeFileSync(path, sessions.map(session).join(''));
    const split = await inRanges(path, 't');
    const { counts } = written(split.read);
    expect(split.text).toBe((await oneThread(path, 't')).text);
    expect(counts.ranges).toBe(sessions.length);
    expect(counts.written).toBe(sessions.length);
  });

  test("caps each worker's young generation, long records and the process's growth factor whatever", async () => {
    // V8's default: the young generation doubles whenever a scavenge asks for more room.
    setFlagsFromString('--semi-space-growth-factor=2');
    const long = 'x'.repeat(4 * 1024 * 1024);
    const path = join(scratch, 'long-records.ndjson');
    writeFileSync(
      path,
      ['s1', 's2', 's3', 's4']
        .map((id) =>
          [
            { type: 'system', subtype: 'init', apiKeySource: 'login', cwd: '/w', session_id: id, model: 'm' },
            ...[1, 2, 3].map((call) => ({
              type: 'assistant',
              message: { role: 'assistant', content: [{ type: 'text', text: long }] },
              session_id: id,
              model_call_id: `${id}-${call}`,
            })),
          ]
            .map((record) => `${JSON.stringify(record)}\n`)
            .join(''),
        )
        .join(''),
    );
    const sizes: number[] = [];
    const read = await readInRanges(path, {
      jobs: 2,
      splitBytes: 1,
      consumer: bundled('young-consumer'),
      setup: {},
      workerUrl: bundled('range-worker'),
      async items() {},
      result: (size) => void sizes.push(size as number),
    });
    expect(written(read).counts.written).toBe(4);
    expect(sizes).toHaveLength(4);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(YOUNG_GENERATION_CAP_BYTES);
  });

  test('says that a file grew while read, and where what it did not read starts, instead of dropping it', async () => {
    const path = join(scratch, 'growing.ndjson');
    const text = RECORDINGS.join('');
    writeFileSync(path, text);
    let appended = false;
    const read = await readInRanges(path, {
      jobs: 2,
      splitBytes: 1,
      consumer: bundled('line-consumer'),
      setup: { label: 'g' },
      workerUrl: bundled('range-worker'),
      async items() {
        // The agent writes on while the log is read.
        if (!appended) appendFileSync(path, RECORDINGS[0] ?? '');
        appended = true;
      },
      result() {},
    });
    const problems = written(read).stats.inputProblems;
    expect(problems).toEqual([
      {
        code: 'grew-while-read',
        path,
        message: `grew by ${Buffer.byteLength(RECORDINGS[0] ?? '')} bytes while read in ranges: what came after byte ${Buffer.byteLength(text)} is not read (--jobs 1 reads a growing log to its end)`,
      },
    ]);
  });

  test('leaves to one thread a single job, standard input and a file below the split size', async () => {
    const path = join(scratch, 'small.ndjson');
    writeFileSync(path, RECORDINGS.join(''));
    const reading = { consumer: bundled('line-consumer'), items: async () => {}, result() {} };
    expect(await readInRanges(path, { ...reading, jobs: 1, splitBytes: 1 })).toBeNull();
    expect(await readInRanges('-', { ...reading, jobs: 2, splitBytes: 1 })).toBeNull();
    expect(await readInRanges(path, { ...reading, jobs: 2 })).toBeNull();
  });

  test('says, as a located error, that a module is no range consumer', async () => {
    const path = join(scratch, 'no-consumer.ndjson');
    writeFileSync(path, RECORDINGS.join(''));
    const read = await readInRanges(path, {
      jobs: 2,
      splitBytes: 1,
      consumer: bundled('size-runner'),
      workerUrl: bundled('range-worker'),
      items: async () => {},
      result() {},
    });
    expect(read).toEqual({
      ok: false,
      error: {
        code: 'read-failed',
        path,
        message: `no range consumer: ${bundled('size-runner').href} exports no createConsumerFactory function`,
      },
    });
  });
});

describe('runInWorkers', () => {
  test('runs each task once, tells each outcome with its index, and a failed task fails alone', async () => {
    const files = ['a', 'b', 'c', 'd'].map((name, index) => {
      const path = join(scratch, `${name}.txt`);
      writeFileSync(path, 'x'.repeat(index + 1));
      return path;
    });
    const tasks = [files[0], `${files[1]}!`, files[2], `${files[3]}#`, files[3]] as string[];
    const outcomes = new Map<number, SizeOutcome>();
    const failures = new Map<number, string>();
    let advanced = 0;
    await runInWorkers<string, SizeOutcome>(tasks, {
      jobs: 2,
      runner: bundled('size-runner'),
      setup: { label: 'sized' },
      workerUrl: bundled('pool-worker'),
      progress: {
        advance(bytes) {
          advanced += bytes;
        },
        done() {},
      },
      onOutcome: (index, outcome) => outcomes.set(index, outcome),
      onFailure: (index, error) =>
        failures.set(index, error instanceof Error ? error.message : String(error)),
    });
    expect([...outcomes].sort(([a], [b]) => a - b)).toEqual([
      [0, { label: 'sized', path: files[0], bytes: 1 }],
      [2, { label: 'sized', path: files[2], bytes: 3 }],
      [4, { label: 'sized', path: files[3], bytes: 4 }],
    ]);
    expect([...failures.keys()].sort()).toEqual([1, 3]);
    expect(failures.get(1)).toBe(`cannot take ${files[1]}!`);
    expect(advanced).toBe(8);
  });

  test('resolves at once with no tasks', async () => {
    const heard: number[] = [];
    await runInWorkers([], {
      jobs: 2,
      runner: bundled('size-runner'),
      onOutcome: (index) => heard.push(index),
      onFailure: (index) => heard.push(index),
    });
    expect(heard).toEqual([]);
  });
});
