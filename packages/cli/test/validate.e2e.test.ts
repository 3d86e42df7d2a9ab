import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { FOREIGN_LOGS, OWN_STREAMS, REAL_CORPUS, REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { RECORDING, runCli, runCliOnResetInput } from '@cursor-stream/test-kit/run-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

let scratch = '';
let realStreams: string[] = [];

const SCHEMA_BREAKING_LOG = [
  '{"type":"system","subtype":"init","session_id":"s","model":"Auto"}',
  '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"hi"}]},"session_id":"s","extra_field":1}',
  '{"type":"result","subtype":"success","is_error":false,"result":"hi","session_id":"s","duration_ms":"fast"}',
  '',
].join('\n');

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-validate-'));
  realStreams = [...OWN_STREAMS, ...REAL_CORPUS.ndjsonFiles()];
  await writeFile(join(scratch, 'schema.ndjson'), SCHEMA_BREAKING_LOG);
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('validate on the recordings of the real shapes', () => {
  test('finds no problem in any of them, lists the files in argument order, and exits 0', async () => {
    const run = await runCli(['validate', '--json', ...realStreams]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(true);
    expect(report.files.map((file: { path: string }) => file.path)).toEqual(realStreams);
    expect(report.files.flatMap((file: { problems: unknown[] }) => file.problems)).toEqual([]);
  });

  test('reports the same, in the same order, whatever the number of worker threads', async () => {
    const reversed = [...realStreams].reverse();
    const one = await runCli(['validate', '--json', '--jobs', '1', ...reversed]);
    const three = await runCli(['validate', '--json', '--jobs', '3', ...reversed]);
    expect(three.stdout).toBe(one.stdout);
    expect(JSON.parse(three.stdout).files.map((file: { path: string }) => file.path)).toEqual(reversed);
  });

  test('reports the same for small and large files, unreadable ones among them, on one thread or on workers', async () => {
    // Large files go to workers and small ones stay on the main thread: the report must not show which did what.
    const large = join(scratch, 'large.ndjson');
    const recording = await readFile(RECORDING);
    await writeFile(
      large,
      Buffer.concat(Array.from({ length: Math.ceil(300_000 / recording.length) }, () => recording)),
    );
    const schema = join(scratch, 'schema.ndjson');
    const paths = [large, RECORDING, join(scratch, 'missing.ndjson'), schema, large, ...realStreams, schema];
    const one = await runCli(['validate', '--jobs', '1', ...paths]);
    const two = await runCli(['validate', '--jobs', '2', ...paths]);
    expect([two.code, two.stdout, two.stderr]).toEqual([one.code, one.stdout, one.stderr]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('missing.ndjson');
    expect(one.stdout.split('\n').filter((line) => line.startsWith(`${large}: `))).toHaveLength(2);
  });

  /** Reconnects, retries and plan queries, as ours and (when present) a real capture hold them. */
  const reconnects = [
    join(REPO_ROOT, 'corpus/official/reconnect-retry-plan.ndjson'),
    ...REAL_CORPUS.ndjsonFiles().filter((path) => path.endsWith('cursor-turn-resume-reconnect.ndjson')),
  ];
  test.each(reconnects)(
    'reconnects, retries and plan queries are modelled events: no warning, and --strict passes: %s',
    async (reconnect) => {
      const lenient = await runCli(['validate', '--json', reconnect]);
      const strict = await runCli(['validate', '--json', '--strict', reconnect]);
      const [lenientFile] = JSON.parse(lenient.stdout).files;
      const [strictFile] = JSON.parse(strict.stdout).files;
      expect([lenient.code, lenientFile.warnings]).toEqual([0, []]);
      expect([strict.code, strictFile.problems, strictFile.warnings]).toEqual([0, [], []]);
    },
  );

  test.each(FOREIGN_LOGS)(
    'a %s log is one foreign-format problem naming the agent, exit 1; summary says it on stderr',
    async (name, format) => {
      const path = join(REPO_ROOT, 'corpus/foreign', name);
      const sentence = `this looks like ${format} log, not cursor-agent`;
      const run = await runCli(['validate', path]);
      expect(run.code).toBe(1);
      expect(run.stdout.split('\n')[0]).toBe(`${path}:1: foreign-format: ${sentence}`);
      // Named as no dialect of Cursor's, even where one reads some of its records.
      expect(run.stdout.split('\n')[1]).toMatch(new RegExp(`^${path}: not a Cursor stream, \\d+ lines?,`));
      const json = await runCli(['validate', '--json', path]);
      expect(JSON.parse(json.stdout).files[0].dialect).toBeNull();
      const summary = await runCli(['summary', path]);
      expect(summary.code).toBe(1);
      // Summary leaves the log out of what it counts, and says so.
      expect(summary.stderr).toBe(`cursor-stream: ${path}: line 1: ${sentence}; left out\n`);
    },
  );
});

describe('validate reports problems', () => {
  test('schema violations as FILE:LINE: code: message (at /pointer), then a summary, and exits 1', async () => {
    const path = join(scratch, 'schema.ndjson');
    const run = await runCli(['validate', '--dialect', 'official', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      [
        `${path}:3: schema-violation: must be integer (at /duration_ms)`,
        `${path}: official, 3 lines, 3 events: 1 problem`,
        '',
      ].join('\n'),
    );
  });

  test('a log checked as another dialect than its own: each record of the other dialect is a problem', async () => {
    const acp = join(REPO_ROOT, 'corpus/acp/cursor-agent-tools.ndjson');
    const forced = await runCli(['validate', '--dialect', 'official', acp]);
    expect(forced.code).toBe(1);
    expect(forced.stdout).toMatch(
      /cursor-agent-tools\.ndjson:1: other-dialect: is a record of the acp dialect, not of official, which the log is checked as/,
    );
    expect((await runCli(['validate', acp])).code).toBe(0);
    expect((await runCli(['validate', '--dialect', 'acp', acp])).code).toBe(0);
    const official = await runCli(['validate', '--dialect', 'acp', RECORDING]);
    expect(official.code).toBe(1);
    expect(official.stdout).toMatch(/:1: other-dialect: is a record of the official dialect, not of acp/);
  });

  test('with --strict, unknown fields too', async () => {
    const run = await runCli(['validate', '--strict', '--json', join(scratch, 'schema.ndjson')]);
    const [file] = JSON.parse(run.stdout).files;
    expect(file.problems).toEqual([
      { line: 2, offset: 67, code: 'unknown-field', message: expect.any(String), pointer: '/extra_field' },
      { line: 3, offset: 192, code: 'schema-violation', message: 'must be integer', pointer: '/duration_ms' },
    ]);
  });

  test('a truncated log as a truncated record at its line', async () => {
    const recording = await readFile(join(REPO_ROOT, RECORDING));
    const path = join(scratch, 'truncated.ndjson');
    await writeFile(path, recording.subarray(0, recording.length - 40));
    const run = await runCli(['validate', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^${path}:10: truncated: .+$`, 'm'));
  });
});

describe('validate of standard input that fails part-way (the connection it comes on is reset)', () => {
  /** The recording with a line of garbage after its first record, then more of it, as stdin that is then reset. */
  async function validateOfResetInput(args: string[]) {
    const recording = (await readFile(join(REPO_ROOT, RECORDING), 'utf8')).split('\n');
    const input = [recording[0], 'garbage', ...recording.slice(1)].join('\n');
    return runCliOnResetInput(args, input);
  }

  test('--json lists what it found before the error beside the error, and exits 2', async () => {
    const run = await validateOfResetInput(['validate', '--json', '-']);
    expect(run.code).toBe(2);
    const [file] = JSON.parse(run.stdout).files;
    expect(file.error.code).toBe('read-failed');
    expect(file.lines).toBeGreaterThanOrEqual(2);
    expect(file.events).toBeGreaterThan(0);
    expect(file.problems).toEqual([expect.objectContaining({ line: 2, code: 'non-json-output' })]);
  });

  test('the text form prints it above the error line', async () => {
    const run = await validateOfResetInput(['validate', '-']);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/^<stdin>:2: non-json-output: /);
    expect(run.stderr).toMatch(/^cursor-stream: <stdin>: [^\n]+\n$/);
  });
});

describe('validate on a directory', () => {
  test('walks it for .ndjson, .jsonl, .log and their .gz, in name order, skipping everything else', async () => {
    const folder = join(scratch, 'logs');
    await mkdir(join(folder, 'nested'), { recursive: true });
    const recording = await readFile(join(REPO_ROOT, RECORDING));
    await copyFile(join(REPO_ROOT, RECORDING), join(folder, 'b.ndjson'));
    await writeFile(join(folder, 'a.jsonl.gz'), gzipSync(recording));
    await writeFile(join(folder, 'notes.txt'), 'not a log\n');
    await copyFile(join(REPO_ROOT, RECORDING), join(folder, 'nested/run.log'));
    const run = await runCli(['validate', '--json', folder]);
    expect(run.code).toBe(0);
    const files = JSON.parse(run.stdout).files;
    expect(files.map((file: { path: string }) => file.path)).toEqual(
      ['a.jsonl.gz', 'b.ndjson', 'nested/run.log'].map((name) => join(folder, name)),
    );
    expect(files.map((file: { lines: number }) => file.lines)).toEqual([10, 10, 10]);
  });

  test('a file that cannot be read makes exit 2, names itself on stderr, and the others are still validated', async () => {
    const missing = join(scratch, 'missing.ndjson');
    const run = await runCli(['validate', RECORDING, missing, RECORDING]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`cursor-stream: ${missing}: no such file\n`);
    expect(run.stdout.split('\n').filter((line) => line.startsWith(`${RECORDING}: official`))).toHaveLength(
      2,
    );
    expect(run.stdout).toMatch(/^3 files: no problems, 1 file not read$/m);
  });
});
