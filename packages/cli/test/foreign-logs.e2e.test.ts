import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FOREIGN_LOGS, REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { runCli, startCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// The commands that read many logs name another agent's log as such, as validate and summary do, instead of
// counting, drawing, writing or exporting it as if it were cursor-agent's. Only render and normalize of one log read
// live (standard input alone, a followed file) show it as it comes, since leaving it out would hold back their output
// until whose log it is is known.
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-foreign-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe.each(FOREIGN_LOGS)('a %s log', (name, format) => {
  const path = join(REPO_ROOT, 'corpus/foreign', name);
  const said = `cursor-stream: ${path}: line 1: this looks like ${format} log, not cursor-agent; left out\n`;

  test('usage says what it is on stderr and exits 1', async () => {
    const run = await runCli(['usage', '--json', path]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(said);
  });

  test('report says what it is on stderr and exits 1', async () => {
    const run = await runCli(['report', path, '-o', join(scratch, `${name}.html`)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(said);
  });

  test('export says what it is on stderr and exits 1', async () => {
    const run = await runCli(['export', '--format', 'otlp', path, '-o', join(scratch, `${name}.jsonl`)]);
    expect(run.code).toBe(1);
    expect(run.stderr.startsWith(said)).toBe(true);
  });

  test.each(['render', 'normalize'])(
    '%s named it alone writes none of it, as summary does',
    async (command) => {
      const run = await runCli([command, path]);
      expect([run.code, run.stdout, run.stderr]).toEqual([1, '', said]);
    },
  );

  test.each(['render', 'normalize'])(
    '%s on standard input alone writes it as it comes, and names it',
    async (command) => {
      const run = await runCli([command], { input: await readFile(path) });
      expect([run.code, run.stderr]).toEqual([
        1,
        `cursor-stream: <stdin>: line 1: this looks like ${format} log, not cursor-agent\n`,
      ]);
      expect(run.stdout).not.toBe('');
    },
  );
});

test("render --follow shows another agent's log as it grows, and names it", async () => {
  const path = join(scratch, 'followed.ndjson');
  await copyFile(join(REPO_ROOT, 'corpus/foreign/claude-code-stream-json.ndjson'), path);
  const cli = startCli(['render', '--follow', path]);
  await cli.waitFor('The folder holds README.md and src.');
  cli.child.kill('SIGINT');
  expect(await cli.exited()).toBe(1);
  expect(cli.stderr).toBe(
    `cursor-stream: ${path}: line 1: this looks like a Claude Code stream-json log, not cursor-agent\n`,
  );
});

test('a cursor-agent log still exits 0 through usage, report and export', async () => {
  const path = join(REPO_ROOT, 'corpus/official/docs-example-zh.ndjson');
  const runs = await Promise.all([
    runCli(['usage', path]),
    runCli(['report', path, '-o', join(scratch, 'clean.html')]),
    runCli(['export', '--format', 'otlp', path, '-o', join(scratch, 'clean.jsonl')]),
  ]);
  expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
});

/**
 * Checks that `usage`, `summary` (each given `jobs`) and `census` leave the log at `path` out: nothing of it counted,
 * `said` alone on stderr, exit 1.
 */
async function expectLeftOut(path: string, said: string, jobs: readonly string[] = []): Promise<void> {
  const [usage, summary, census] = await Promise.all([
    runCli(['usage', '--json', ...jobs, path]),
    runCli(['summary', '--json', ...jobs, path]),
    runCli(['census', '--json', path]),
  ]);
  expect([usage.code, usage.stderr]).toEqual([1, said]);
  expect(JSON.parse(usage.stdout).totals.sessionCount).toBe(0);
  expect([summary.code, summary.stderr]).toEqual([1, said]);
  expect(JSON.parse(summary.stdout).sessions).toEqual([]);
  expect(JSON.parse(census.stdout)).toMatchObject({ records: 0, rows: [] });
}

describe("another agent's record that starts in the first 64 KiB and ends past them", () => {
  /**
   * Cursor's records up to `start` bytes, then a Claude Code log whose first record starts there: the log is
   * theirs from its start, however far past the window that record ends.
   */
  async function straddling(
    name: string,
    start: number,
    firstRecordBytes: number,
  ): Promise<{ path: string; line: number }> {
    const cursor = await readFile(
      join(REPO_ROOT, 'corpus/official/parallel-tools-out-of-order.ndjson'),
      'utf8',
    );
    const claude = (await readFile(join(REPO_ROOT, 'corpus/foreign/claude-code-stream-json.ndjson'), 'utf8'))
      .split('\n')
      .filter((line) => line !== '');
    const init = JSON.parse(claude[0] as string) as Record<string, unknown>;
    init.cwd = `/${'d'.repeat(Math.max(0, firstRecordBytes - (claude[0] as string).length))}`;
    let head = '';
    while (head.length + cursor.length <= start) head += cursor;
    // Pads the Cursor part with blank lines to end right at `start`.
    head += '\n'.repeat(start - head.length);
    const path = join(scratch, name);
    await writeFile(path, `${head}${[JSON.stringify(init), ...claude.slice(1)].join('\n')}\n`);
    return { path, line: head.split('\n').length };
  }

  test.each([
    ['a record from the first byte, 70 KB long', 0, 70_000],
    ['a record from just before the window to past it', 65_185, 500],
  ])('is left out by usage, summary and census, on one job and two: %s', async (_, start, bytes) => {
    const { path, line } = await straddling(`straddle-${start}.ndjson`, start, bytes);
    const said = `cursor-stream: ${path}: line ${line}: this looks like a Claude Code stream-json log, not cursor-agent; left out\n`;
    for (const jobs of ['1', '2']) await expectLeftOut(path, said, ['--jobs', jobs]);
  });
});

describe("another agent's log after lines that are no records (a log captured with 2>&1)", () => {
  /** `bytes` of a package manager's warnings, one per line, then the log at `log`. */
  async function afterNoise(
    name: string,
    bytes: number,
    log: string,
  ): Promise<{ path: string; line: number }> {
    const warning = 'npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.\n';
    const noise = warning.repeat(Math.ceil(bytes / warning.length));
    const path = join(scratch, name);
    await writeFile(path, `${noise}${await readFile(join(REPO_ROOT, log), 'utf8')}`);
    return { path, line: noise.split('\n').length };
  }

  test('is left out whole when its first record is within 256 KiB, by usage, summary and census', async () => {
    const { path, line } = await afterNoise(
      'noise-claude.ndjson',
      75_000,
      'corpus/foreign/claude-code-stream-json.ndjson',
    );
    const said = `cursor-stream: ${path}: line ${line}: this looks like a Claude Code stream-json log, not cursor-agent; left out\n`;
    await expectLeftOut(path, said);
  });

  test('is read and named when more lines than that come first, as a log that mixes theirs in', async () => {
    const { path, line } = await afterNoise(
      'long-noise-claude.ndjson',
      300_000,
      'corpus/foreign/claude-code-stream-json.ndjson',
    );
    const summary = await runCli(['summary', '--json', path]);
    expect(summary.stderr).toContain(
      `line ${line}: this looks like a Claude Code stream-json log, not cursor-agent\n`,
    );
    expect(summary.stderr).not.toContain('left out');
  });

  test('a Cursor log after the same lines is counted as it is alone', async () => {
    const log = 'corpus/official/docs-example-zh.ndjson';
    const { path } = await afterNoise('noise-cursor.ndjson', 75_000, log);
    const [alone, after] = await Promise.all([
      runCli(['usage', '--json', join(REPO_ROOT, log)]),
      runCli(['usage', '--json', path]),
    ]);
    expect(after.stderr).toMatch(/invalid lines?/);
    expect(JSON.parse(after.stdout).totals).toEqual(JSON.parse(alone.stdout).totals);
  });
});

describe('a real Claude Code log among Cursor logs', () => {
  const claude = join(REPO_ROOT, 'corpus/captures/foreign/harness-cli-normalizer__claude-code.ndjson');
  const cursor = join(REPO_ROOT, 'corpus/official/parallel-tools-out-of-order.ndjson');
  const leftOut = (path: string) =>
    `cursor-stream: ${path}: line 1: this looks like a Claude Code stream-json log, not cursor-agent; left out\n`;
  /** A folder holding the Cursor log and the Claude one, as `cursor.ndjson` and `claude.ndjson`. */
  async function mixedFolder(name: string): Promise<string> {
    const folder = join(scratch, name);
    await mkdir(folder, { recursive: true });
    await copyFile(cursor, join(folder, 'cursor.ndjson'));
    await copyFile(claude, join(folder, 'claude.ndjson'));
    return folder;
  }

  test('usage counts the Cursor sessions and tokens only, and says which file it left out', async () => {
    const folder = await mixedFolder('mixed');
    const [mixed, alone] = await Promise.all([
      runCli(['usage', '--json', folder]),
      runCli(['usage', '--json', cursor]),
    ]);
    expect(JSON.parse(mixed.stdout).totals).toEqual(JSON.parse(alone.stdout).totals);
    expect(JSON.parse(alone.stdout).totals.totalTokens).toBeGreaterThan(0);
    expect([mixed.code, mixed.stderr]).toEqual([1, leftOut(join(folder, 'claude.ndjson'))]);
  });

  test('summary shows no session of it, report draws none, census counts none of it and says why', async () => {
    const report = join(scratch, 'claude.html');
    const [summary, page, census] = await Promise.all([
      runCli(['summary', '--json', claude]),
      runCli(['report', claude, '-o', report]),
      runCli(['census', '--json', claude]),
    ]);
    expect(JSON.parse(summary.stdout).sessions).toEqual([]);
    expect([summary.code, summary.stderr]).toEqual([1, leftOut(claude)]);
    expect(page.code).toBe(1);
    // The log's session id appears nowhere on the page.
    expect(await readFile(report, 'utf8')).not.toContain('183164b0-885f-4d09-945f-4b0c51f82c81');
    // Claude's records are not Cursor's records drifting: none is counted as a record of a Cursor dialect.
    expect([census.code, census.stderr]).toEqual([1, leftOut(claude)]);
    expect(JSON.parse(census.stdout)).toMatchObject({ files: 1, records: 0, rows: [] });
  });

  test.each(['summary', 'usage', 'census'])(
    '%s --json lists the log it left out, with its line, and adds nothing when none was',
    async (command) => {
      const folder = await mixedFolder(`listed-${command}`);
      const [mixed, alone] = await Promise.all([
        runCli([command, '--json', folder]),
        runCli([command, '--json', cursor]),
      ]);
      const claudeInFolder = join(folder, 'claude.ndjson');
      expect(JSON.parse(mixed.stdout).foreignLogs).toEqual([
        {
          file: claudeInFolder,
          line: 1,
          message: leftOut(claudeInFolder).slice(`cursor-stream: ${claudeInFolder}: `.length, -1),
        },
      ]);
      expect(Object.keys(JSON.parse(alone.stdout))).not.toContain('foreignLogs');
    },
  );

  test('census of a folder counts the Cursor log as it does alone', async () => {
    const folder = await mixedFolder('census-mixed');
    const [mixed, alone] = await Promise.all([
      runCli(['census', '--json', folder]),
      runCli(['census', '--json', cursor]),
    ]);
    const rowsOf = (run: { stdout: string }) =>
      (JSON.parse(run.stdout) as { rows: { type: string; subtype: string; count: number }[] }).rows.map(
        ({ type, subtype, count }) => [type, subtype, count],
      );
    expect(rowsOf(mixed)).toEqual(rowsOf(alone));
    expect(rowsOf(alone).length).toBeGreaterThan(3);
    expect([mixed.code, mixed.stderr]).toEqual([1, leftOut(join(folder, 'claude.ndjson'))]);
  });
});
