import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { RECORDING, runCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const ROWS = ['pipeline', 'pipeline-reducer', 'reference-loop'];

interface BenchJson {
  machine: Record<string, unknown>;
  runs: number;
  files: { path: string; bytes: number; rows: Record<string, unknown>[] }[];
}

let scratch = '';
let gzipped = '';

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-bench-'));
  gzipped = join(scratch, 'recording.ndjson.gz');
  await writeFile(gzipped, gzipSync(await readFile(join(REPO_ROOT, RECORDING))));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('cursor-stream bench', () => {
  test('--json reports every row of every file with positive numbers', async () => {
    const run = await runCli(['bench', '--json', '--runs', '1', RECORDING, gzipped]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as BenchJson;
    expect(Object.keys(report.machine)).toEqual(expect.arrayContaining(['cpu', 'cores', 'node', 'os']));
    expect(report.runs).toBe(1);
    expect(report.files.map((file) => file.path)).toEqual([RECORDING, gzipped]);
    const [plain, compressed] = report.files;
    // A gzipped log is measured on its decompressed bytes.
    expect(compressed?.bytes).toBe(plain?.bytes);
    for (const file of report.files) {
      expect(file.bytes).toBe(2341);
      expect(file.rows.map((row) => row.name)).toEqual(ROWS);
      for (const row of file.rows) {
        expect(Object.keys(row).sort()).toEqual(['eventsPerSec', 'mbPerSec', 'name', 'peakRssMb', 'ratio']);
        for (const key of ['mbPerSec', 'eventsPerSec', 'ratio', 'peakRssMb'])
          expect(row[key]).toBeGreaterThan(0);
      }
      expect(file.rows.at(-1)?.ratio).toBe(1);
    }
  });

  test('prints a table per file by default', async () => {
    const run = await runCli(['bench', '--runs', '1', RECORDING]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${RECORDING}: 2,341 bytes`);
    expect(run.stdout).toMatch(/^ {2}row +MB\/s +events\/s +ratio +peak RSS MB$/m);
    for (const row of ROWS)
      expect(run.stdout).toMatch(new RegExp(`^ {2}${row} +[\\d.]+ +[\\d,]+ +[\\d.]+ +\\d+$`, 'm'));
  });

  test('exits 1 when a log has invalid lines, as the other commands do', async () => {
    const path = join(scratch, 'bad.ndjson');
    await writeFile(path, '{"type":"user","message":{"content":[]}}\nnot json\n');
    const run = await runCli(['bench', '--runs', '1', '--json', path]);
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stdout) as BenchJson).files).toHaveLength(1);
  });

  test("measures another agent's log, names it on stderr and exits 1", async () => {
    const foreign = 'corpus/foreign/claude-code-stream-json.ndjson';
    const run = await runCli(['bench', '--runs', '1', '--json', RECORDING, foreign]);
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stdout) as BenchJson).files.map((file) => file.path)).toEqual([
      RECORDING,
      foreign,
    ]);
    expect(run.stderr).toMatch(
      new RegExp(`^cursor-stream: ${foreign}: line 1: [^\n]*Claude Code[^\n]*; measured all the same\n$`),
    );
  });

  test.each([
    [['bench', 'missing.ndjson'], 'cursor-stream: missing.ndjson: no such file\n'],
    [
      ['bench', RECORDING, 'corpus/official'],
      'cursor-stream: corpus/official: is a directory, not a log file\n',
    ],
    [['bench', '-'], 'cursor-stream: bench reads each file several times: give files, not -\n'],
  ])('%j exits 2 with one line on stderr before measuring anything', async (args, stderr) => {
    expect(await runCli(args)).toMatchObject({ code: 2, stdout: '', stderr });
  });

  test('a pipe is refused at once, not waited on', async () => {
    const fifo = join(scratch, 'log.fifo');
    execFileSync('mkfifo', [fifo]);
    expect(await runCli(['bench', '--runs', '1', fifo])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `cursor-stream: ${fifo}: bench reads each file several times: give files, not a pipe or a device\n`,
    });
  });

  test.each([[['bench']], [['bench', RECORDING, '--runs', '0']]])('%j is a usage error', async (args) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^cursor-stream: [^\n]+\n$/);
  });
});

describe.skipIf(process.platform !== 'linux')('bench ended by a signal sent to it alone', () => {
  /** The pids of the processes whose parent is `pid`, from procfs. */
  async function childrenOf(pid: number): Promise<number[]> {
    const { readdir, readFile: read } = await import('node:fs/promises');
    const tasks = await readdir(`/proc/${pid}/task`).catch(() => []);
    const lists = await Promise.all(
      tasks.map((task) => read(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')),
    );
    return lists.flatMap((list) => list.split(' ').filter(Boolean).map(Number));
  }

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  test.each(['SIGTERM', 'SIGINT'] as const)(
    'on %s ends its run in a fresh process with it, and exits as the signal would',
    async (signal) => {
      const { spawn } = await import('node:child_process');
      const { CLI_BIN } = await import('@cursor-stream/test-kit/run-cli');
      const { constants } = await import('node:os');
      const long = join(scratch, `long-${signal}.ndjson`);
      await writeFile(long, (await readFile(join(REPO_ROOT, RECORDING), 'utf8')).repeat(40_000));
      const bench = spawn(process.execPath, [CLI_BIN, 'bench', '--runs', '5', long], { stdio: 'ignore' });
      // Between two runs no handler is installed, and the signal ends the process itself (there is no run to end):
      // either way it exits as the signal would, which a shell sees as the same status.
      const exited = new Promise<number | null>((resolve) =>
        bench.on('exit', (code, by) => resolve(by === signal ? 128 + constants.signals[signal] : code)),
      );
      let runs: number[] = [];
      for (let tries = 0; runs.length === 0 && tries < 200; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        runs = await childrenOf(bench.pid ?? 0);
      }
      expect(runs.length).toBeGreaterThan(0);
      bench.kill(signal);
      expect(await exited).toBe(128 + constants.signals[signal]);
      for (let tries = 0; runs.some(alive) && tries < 100; tries++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(runs.filter(alive)).toEqual([]);
    },
    60_000,
  );
});
