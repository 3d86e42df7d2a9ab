import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { OWN_STREAMS, REAL_CORPUS, REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { sessionWithUsage } from '@cursor-stream/test-kit/ndjson';
import { RECORDING, runCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SPLIT_BYTES_ENV } from '../src/io/cli-io.ts';

let scratch = '';
let recording = Buffer.alloc(0);

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-summary-'));
  recording = await readFile(join(REPO_ROOT, RECORDING));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('summary --json on the bundled recording', () => {
  test('prints exactly the documented document and exits 0', async () => {
    const run = await runCli(['summary', '--json', RECORDING]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(run.stdout)).toEqual({
      sessions: [
        {
          sessionId: 'c6b62c6f-7ead-4fd6-9922-e952131177ff',
          dialect: 'official',
          model: 'Claude 4 Sonnet',
          status: 'success',
          error: null,
          text: '我會閱讀 README.md 檔案並建立摘要',
          textLength: 22,
          textOmitted: null,
          resultText: '我會閱讀 README.md 檔案並建立摘要',
          textMatchesResult: true,
          toolCalls: [
            {
              toolCallId: 'toolu_vrtx_01NnjaR886UcE8whekg2MGJd',
              toolName: 'read',
              status: 'success',
              startLine: 5,
              endLine: 6,
              durationMs: null,
              orphan: false,
            },
            {
              toolCallId: 'toolu_vrtx_01Q3VHVnWFSKygaRPT7WDxrv',
              toolName: 'write',
              status: 'success',
              startLine: 8,
              endLine: 9,
              durationMs: null,
              orphan: false,
            },
          ],
          toolCallsOmitted: 0,
          counts: {
            'stream-start': 1,
            'user-message': 1,
            'text-delta': 3,
            'tool-call': 2,
            'tool-result': 2,
            finish: 1,
          },
          durationMs: 5234,
          usage: null,
        },
      ],
      invalidLines: [],
      lines: 10,
      bytes: recording.length,
    });
  });

  test('reads the same from standard input, named - or not named at all', async () => {
    const fromFile = await runCli(['summary', '--json', RECORDING]);
    const fromDash = await runCli(['summary', '--json', '-'], { input: recording });
    const fromDefault = await runCli(['summary', '--json'], { input: recording });
    expect([fromDash.code, fromDefault.code]).toEqual([0, 0]);
    expect(fromDash.stdout).toBe(fromFile.stdout);
    expect(fromDefault.stdout).toBe(fromFile.stdout);
  });

  test('decompresses a .gz file, and gzip piped into standard input, to the same summary', async () => {
    const gzipped = join(scratch, 'recording.ndjson.gz');
    await writeFile(gzipped, gzipSync(recording));
    const plain = await runCli(['summary', '--json', RECORDING]);
    const fromGzipFile = await runCli(['summary', '--json', gzipped]);
    const fromGzipPipe = await runCli(['summary', '--json'], { input: gzipSync(recording) });
    expect([fromGzipFile.code, fromGzipFile.stderr]).toEqual([0, '']);
    expect(fromGzipFile.stdout).toBe(plain.stdout);
    expect(fromGzipPipe.stdout).toBe(plain.stdout);
  });
});

describe('summary as a table', () => {
  test('shows the session, its tool calls and the input at a glance', async () => {
    const run = await runCli(['summary', RECORDING]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('\u001b[');
    expect(run.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        'session c6b62c6f-7ead-4fd6-9922-e952131177ff',
        '  model   Claude 4 Sonnet (official)',
        '    1  read   success  5-6    -         toolu_vrtx_01NnjaR886UcE8whekg2MGJd',
        'input 10 lines, 2.3 KB, 1 session, no invalid lines',
      ]),
    );
  });
});

describe('summary of a truncated log', () => {
  test('reports the cut record as an invalid line, the session as incomplete, and exits 1', async () => {
    const truncated = join(scratch, 'truncated.ndjson');
    await writeFile(truncated, recording.subarray(0, recording.length - 40));
    const run = await runCli(['summary', '--json', truncated]);
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout);
    expect(summary.invalidLines).toEqual([
      { line: 10, offset: recording.lastIndexOf('{"type":"result"'), code: 'truncated' },
    ]);
    expect(summary.sessions[0].status).toBe('incomplete');
    expect(summary.lines).toBe(10);
  });
});

describe('summary of every recording of the real shapes', () => {
  const paths = [...OWN_STREAMS, ...REAL_CORPUS.ndjsonFiles()];

  test.concurrent.each(paths)(
    '%s: no invalid lines, its physical lines and bytes counted, exit 0',
    async (path) => {
      const bytes = await readFile(path);
      const run = await runCli(['summary', '--json', path]);
      expect([run.code, run.stderr]).toEqual([0, '']);
      const summary = JSON.parse(run.stdout);
      const lineFeeds = bytes.toString('latin1').split('\n').length - 1;
      expect(summary.invalidLines).toEqual([]);
      expect(summary.bytes).toBe(bytes.length);
      expect(summary.lines).toBe(bytes.at(-1) === 0x0a ? lineFeeds : lineFeeds + 1);
      expect(summary.sessions.length).toBeGreaterThan(0);
    },
  );
});

describe('summary --json of one log that mixes the CLI’s records and SDK messages', () => {
  const cli = 'corpus/official/event-reference-session.ndjson';
  const sdk = 'corpus/cursor-sdk/run-stream-messages.ndjson';

  test.each([
    ['the CLI’s first', [cli, sdk], ['official', 'cursor-sdk']],
    ['the SDK’s first', [sdk, cli], ['cursor-sdk', 'official']],
  ])('gives each session the dialect that read its records, %s', async (_order, parts, dialects) => {
    const texts = await Promise.all(parts.map((part) => readFile(join(REPO_ROOT, part), 'utf8')));
    const path = join(scratch, `mixed-${dialects[0]}.ndjson`);
    await writeFile(path, texts.join(''));
    // On one thread, and in ranges cut at each session start on worker threads.
    const runs = await Promise.all([
      runCli(['summary', '--json', path]),
      runCli(['summary', '--json', '--jobs', '2', path], { env: { [SPLIT_BYTES_ENV]: '1' } }),
    ]);
    for (const run of runs) {
      expect([run.code, run.stderr]).toEqual([0, '']);
      const sessions: { dialect: string }[] = JSON.parse(run.stdout).sessions;
      expect(sessions.map((session) => session.dialect)).toEqual(dialects);
    }
  });
});

describe('summary of standard input that fails part-way (the connection it comes on is reset)', () => {
  /** Runs summary on a socket that delivers `sessions` copies of the recording, then resets the connection. */
  async function summaryOfResetInput(args: string[], sessions: number) {
    const { runCliOnResetInput } = await import('@cursor-stream/test-kit/run-cli');
    return runCliOnResetInput(args, recording.toString().repeat(sessions));
  }

  test('--json still writes a whole document of the sessions read, and exits 2 saying why', async () => {
    const run = await summaryOfResetInput(['summary', '--json', '-'], 3);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^cursor-stream: <stdin>: [^\n]+\n$/);
    const document = JSON.parse(run.stdout) as { sessions: { sessionId: string }[] };
    expect(document.sessions.map((session) => session.sessionId)).toEqual(
      Array(3).fill('c6b62c6f-7ead-4fd6-9922-e952131177ff'),
    );
  });

  test('the table still shows the sessions read, and its input line', async () => {
    const run = await summaryOfResetInput(['summary', '-'], 2);
    expect(run.code).toBe(2);
    expect(run.stdout.match(/c6b62c6f-7ead-4fd6-9922-e952131177ff/g)).toHaveLength(2);
    expect(run.stdout).toMatch(/\ninput [^\n]*2 sessions[^\n]*\n$/);
  });
});

describe('summary of inputs none of which can be read', () => {
  test('--json still writes a document, empty, and exits 2 saying why; the table writes nothing', async () => {
    const missing = join(REPO_ROOT, 'corpus', 'no-such-log.ndjson');
    const json = await runCli(['summary', '--json', missing]);
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(/no-such-log\.ndjson: no such file\n$/);
    expect(JSON.parse(json.stdout)).toEqual({ sessions: [], invalidLines: [], lines: 0, bytes: 0 });
    const table = await runCli(['summary', missing]);
    expect([table.code, table.stdout]).toEqual([2, '']);
  });
});

describe('summary of sessions whose usage holds numbers that are no token counts', () => {
  const log = [
    sessionWithUsage('whole', { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 }),
    sessionWithUsage('broken', {
      inputTokens: -100,
      outputTokens: 2.5,
      cacheReadTokens: 1e300,
      cacheWriteTokens: 7,
    }),
  ].join('');

  test('shows only the counts, as usage counts them, and says on stderr what it left out, exiting 1', async () => {
    const path = join(scratch, 'usage-values.ndjson');
    await writeFile(path, log);
    const json = await runCli(['summary', '--json', path]);
    const sessions = (JSON.parse(json.stdout) as { sessions: { sessionId: string; usage: unknown }[] })
      .sessions;
    expect(sessions.map((s) => [s.sessionId, s.usage])).toEqual([
      ['whole', { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 }],
      ['broken', { cacheWriteTokens: 7 }],
    ]);
    const said = [
      'usage.inputTokens -100 is negative, not a number of tokens',
      'usage.outputTokens 2.5 is not a whole number of tokens',
      'usage.cacheReadTokens 1e+300 is more tokens than can be counted exactly',
    ].map((why) => `cursor-stream: ${path}: session broken: ${why}; left out\n`);
    expect([json.code, json.stderr]).toEqual([1, said.join('')]);
    const table = await runCli(['summary', path]);
    expect([table.code, table.stderr]).toEqual([1, said.join('')]);
    expect(table.stdout).toContain('tokens 7 cache write');
    expect(table.stdout).not.toContain('-100');
    // What it cost reads the same in usage.
    const usage = await runCli(['usage', '--json', path]);
    expect(JSON.parse(usage.stdout).totals).toMatchObject({
      inputTokens: 10,
      outputTokens: 2,
      cacheCreationTokens: 7,
    });
  });
});
