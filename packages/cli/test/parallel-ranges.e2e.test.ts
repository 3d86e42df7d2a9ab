/**
 * A large file read in ranges on worker threads gives exactly what one thread gives: the same standard output, byte
 * for byte, the same standard error and the same exit code. The split size is lowered to one byte, so that the
 * repository's recordings, joined into one log, are cut at every session start.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInRanges } from '@cursor-stream/node/ranges';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { sessionWithUsage } from '@cursor-stream/test-kit/ndjson';
import { runCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SPLIT_BYTES_ENV } from '../src/io/cli-io.ts';
import { normalizeInRanges } from './normalize-in-ranges.ts';

/** Cut at every session start. */
const SPLIT_EVERYWHERE = { [SPLIT_BYTES_ENV]: '1' };

/** The command lines compared, each reading one log as its last argument. */
const COMMANDS: readonly (readonly string[])[] = [
  ['summary', '--json'],
  ['summary'],
  ['normalize'],
  ['validate', '--json'],
  ['validate'],
  ['validate', '--strict', '--json'],
  ['usage', '--json'],
  ['usage', '--by', 'session'],
  ['usage', '--by', 'model', '--json'],
];

let scratch = '';

/** The recordings of every dialect (not another agent's logs), in a fixed order. */
function recordings(): string[] {
  const folders = ['official', 'python-wrapper', 'payload-envelope', 'census', 'render'];
  return folders.flatMap((folder) =>
    readdirSync(join(REPO_ROOT, 'corpus', folder))
      .filter((name) => name.endsWith('.ndjson'))
      .sort()
      .map((name) => readFileSync(join(REPO_ROOT, 'corpus', folder, name), 'utf8')),
  );
}

/** The recordings joined, three times over: the copies repeat tool call ids across sessions far apart. */
function joinedLog(): string {
  const once = recordings()
    .map((text) => (text.endsWith('\n') ? text : `${text}\n`))
    .join('');
  return once.repeat(3);
}

async function scratchFile(name: string, text: string): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, text);
  return path;
}

/** What a run printed and returned, with the note a machine with fewer CPUs prints for a larger `--jobs`. */
async function outcome(args: readonly string[], env: Record<string, string> = SPLIT_EVERYWHERE) {
  const run = await runCli(args, { env });
  const stderr = run.stderr.replace(/^cursor-stream: --jobs \d+ lowered to \d+[^\n]*\n/, '');
  return { code: run.code, stdout: run.stdout, stderr };
}

async function expectSameOnAnyJobs(args: readonly string[]): Promise<void> {
  const [one, two, three] = await Promise.all(
    ['1', '2', '3'].map((jobs) => outcome([...args.slice(0, -1), '--jobs', jobs, ...args.slice(-1)])),
  );
  expect(two).toEqual(one);
  expect(three).toEqual(one);
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-ranges-'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('a log read in ranges on worker threads', () => {
  test('is cut at its session starts, and some cuts are read through to keep one thread state', async () => {
    const path = await scratchFile('joined.ndjson', joinedLog());
    const inRanges = await normalizeInRanges(path);
    const one = await runCli(['normalize', '--jobs', '1', path]);
    expect(inRanges?.text).toBe(one.stdout);
    const counts = inRanges?.counts;
    // Every session start is proposed; a session start right after a line that is not a whole record is refused.
    expect(counts?.ranges).toBeGreaterThan(40);
    expect(counts?.written).toBeGreaterThan(20);
    expect(counts?.written).toBeLessThan(counts?.ranges ?? 0);
    // The copies repeat the ids of calls an earlier copy started and never completed. The CLI's dialects forget
    // them at a session start, as every cut is, so no run from a cut needs anything of the ranges before.
    expect(counts?.resumed).toBe(0);
  });

  test('is read again from a cut when a range meets a call an earlier range left open, in a dialect that keeps them', async () => {
    // The SDK's stream starts each run as the CLI does, and keeps a call a `tool_use` block started across runs: a
    // later run's block of the same id starts nothing on one thread, so a run from the cut must not start it either.
    const sdk = readFileSync(join(REPO_ROOT, 'corpus', 'cursor-sdk', 'run-stream-messages.ndjson'), 'utf8');
    const runs = [1, 2, 3, 4].map((copy) => sdk.replaceAll('000000000002"', `00000000000${copy}0"`));
    const path = await scratchFile('sdk-runs.ndjson', runs.join(''));
    const inRanges = await normalizeInRanges(path);
    const one = await runCli(['normalize', '--jobs', '1', path]);
    expect(inRanges?.text).toBe(one.stdout);
    expect(inRanges?.counts.ranges).toBeGreaterThan(1);
    expect(inRanges?.counts.resumed).toBeGreaterThan(0);
  });

  test('summary says the same token counts left out, in the same order, whatever the number of jobs', async () => {
    // Sessions whose usage holds a count no sum can take, between the recordings: each range says what its sessions
    // left out, and the ranges' notes are joined in the order of the log.
    const broken = (copy: number) =>
      sessionWithUsage(`broken-${copy}`, { inputTokens: -copy, outputTokens: 1 });
    const once = recordings().map((text) => (text.endsWith('\n') ? text : `${text}\n`));
    const text = once.map((recording, index) => `${recording}${broken(index + 1)}`).join('');
    const path = await scratchFile('usage-left-out.ndjson', text);
    for (const args of [['summary', '--json'], ['summary']]) {
      await expectSameOnAnyJobs([...args, path]);
      const run = await outcome([...args, '--jobs', '2', path]);
      expect(run.code).toBe(1);
      expect(run.stderr.split('\n').filter((line) => line.includes('; left out'))).toEqual(
        once.map(
          (_, index) =>
            `cursor-stream: ${path}: session broken-${index + 1}: usage.inputTokens -${index + 1} is negative, not a number of tokens; left out`,
        ),
      );
    }
  });

  test.each(COMMANDS.map((args) => [args.join(' '), args] as const))(
    '%s prints the same whatever the number of jobs',
    async (_name, args) => {
      const path = join(scratch, 'joined-for-commands.ndjson');
      await writeFile(path, joinedLog());
      await expectSameOnAnyJobs([...args, path]);
    },
  );

  test('with lines ending in CR LF', async () => {
    const path = await scratchFile('crlf.ndjson', joinedLog().replaceAll('\n', '\r\n'));
    for (const args of [['summary', '--json'], ['normalize'], ['validate', '--json']]) {
      await expectSameOnAnyJobs([...args, path]);
    }
  });

  test('mixing a dialect that keeps state across sessions with the CLI records cut at', async () => {
    // `@cursor/sdk` rows remember the runs they ended, ACP the calls it left open: neither crosses a cut.
    const corpus = (path: string) => readFileSync(join(REPO_ROOT, 'corpus', path), 'utf8');
    const rows = corpus('cursor-sdk/store-runs.ndjson');
    const cli = corpus('official/session-cut-by-init.ndjson');
    const acp = corpus('acp/cursor-agent-tools.ndjson');
    const logs = [
      `${rows.repeat(10)}${cli.split('\n')[0]}\n${rows.repeat(60)}`,
      `${acp}${cli.repeat(20)}`,
      `${cli.repeat(5)}${rows}${cli.repeat(20)}`,
    ];
    for (const [index, log] of logs.entries()) {
      const path = await scratchFile(`mixed-${index}.ndjson`, log);
      for (const args of [['summary', '--json'], ['normalize'], ['usage', '--json']])
        await expectSameOnAnyJobs([...args, path]);
    }
  });

  test('a session without a time of its own, cut by a dated one, stays undated', async () => {
    // The cut session's finish stands at the next session's start, whose time is not the cut session's.
    const undated = [
      '{"type":"system","subtype":"init","session_id":"u","model":"m"}',
      '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"no result"}]},"session_id":"u"}',
    ];
    const dated = [
      '{"type":"system","subtype":"init","session_id":"d","model":"m","timestamp_ms":1790000000000}',
      '{"type":"result","subtype":"success","is_error":false,"result":"","session_id":"d","usage":{"inputTokens":1}}',
    ];
    const path = await scratchFile('undated.ndjson', `${[...undated, ...dated].join('\n')}\n`.repeat(40));
    await expectSameOnAnyJobs(['usage', '--json', '--timezone', 'UTC', path]);
    const run = await runCli(['usage', '--json', '--timezone', 'UTC', '--jobs', '1', path]);
    const days = (JSON.parse(run.stdout) as { daily: { date: string | null; sessionCount: number }[] }).daily;
    expect(days.map((day) => [day.date, day.sessionCount])).toEqual([
      ['2026-09-21', 40],
      [null, 40],
    ]);
  });

  test('with the dialect forced', async () => {
    const path = await scratchFile('forced.ndjson', joinedLog());
    for (const args of [
      ['summary', '--dialect', 'official'],
      ['normalize', '--dialect', 'python-wrapper'],
    ]) {
      await expectSameOnAnyJobs([...args, path]);
    }
  });

  test("with another agent's log in the middle: the same problem at the same line, exit 1", async () => {
    const foreign = readFileSync(join(REPO_ROOT, 'corpus/foreign/claude-code-stream-json.ndjson'), 'utf8');
    const own = recordings().slice(0, 6).join('');
    const path = await scratchFile('foreign.ndjson', `${own}${foreign}${own}`);
    const one = await outcome(['summary', '--json', '--jobs', '1', path]);
    expect(one.code).toBe(1);
    expect(one.stderr).toMatch(/foreign\.ndjson: line \d+: this looks like a Claude Code stream-json log/);
    for (const args of [['summary', '--json'], ['normalize'], ['validate', '--json'], ['usage']]) {
      await expectSameOnAnyJobs([...args, path]);
    }
  });

  test('with more invalid lines and problems than are listed: the same first ones, the same count of the rest', async () => {
    const session = (n: number) =>
      [
        `{"type":"system","subtype":"init","session_id":"s${n}","model":"Auto"}`,
        `{"type":"tool_call","subtype":"started","call_id":"c${n}","tool_call":{"readToolCall":{"args":{"path":"a"}}},"session_id":"s${n}"}`,
        ...Array.from({ length: 450 }, (_, line) =>
          line % 3 === 0 ? `{"broken": ${line}` : `output line ${line}`,
        ),
        `{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s${n}","duration_ms":"fast"}`,
        '',
      ].join('\n');
    const path = await scratchFile(
      'garbage.ndjson',
      Array.from({ length: 30 }, (_, n) => session(n)).join(''),
    );
    const one = await outcome(['summary', '--json', '--jobs', '1', path]);
    expect(JSON.parse(one.stdout).invalidLinesOmitted).toBeGreaterThan(0);
    for (const args of [
      ['summary', '--json'],
      ['summary'],
      ['validate', '--json'],
      ['validate', '--strict'],
    ]) {
      await expectSameOnAnyJobs([...args, path]);
    }
  });

  test('with a last line cut short, and no line feed at the end', async () => {
    const log = joinedLog();
    const path = await scratchFile('cut.ndjson', log.slice(0, log.lastIndexOf('{"type":"result"') + 40));
    for (const args of [['summary', '--json'], ['normalize'], ['validate', '--json']]) {
      await expectSameOnAnyJobs([...args, path]);
    }
  });

  test('is read on one thread below the split size, and from a pipe', async () => {
    const path = await scratchFile('small.ndjson', joinedLog());
    const reading = {
      consumer: new URL('../bundle/normalize-range-consumer.js', import.meta.url),
      items: async () => {},
      result() {},
    };
    expect(await readInRanges(path, { ...reading, jobs: 2 })).toBeNull();
    expect(await readInRanges('-', { ...reading, jobs: 2, splitBytes: 1 })).toBeNull();
    expect(await readInRanges(path, { ...reading, jobs: 1, splitBytes: 1 })).toBeNull();
    const piped = await runCli(['summary', '--json', '--jobs', '2', '-'], {
      input: joinedLog(),
      env: SPLIT_EVERYWHERE,
    });
    const read = await outcome(['summary', '--json', '--jobs', '1', path]);
    expect(piped.stdout).toBe(read.stdout);
  });

  test('a bad --jobs value is a usage error on one line, for every command that takes it', async () => {
    for (const command of ['summary', 'normalize', 'usage']) {
      const run = await runCli([command, '--jobs', '0', 'x.ndjson']);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        "cursor-stream: option '--jobs <n>' argument '0' is invalid. must be a positive integer\n",
      );
    }
  });
});
