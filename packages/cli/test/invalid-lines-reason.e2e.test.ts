import { statSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { RECORDING, runCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

let folder = '';

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'cursor-stream-invalid-'));
  await cp(join(REPO_ROOT, RECORDING), join(folder, 'a-clean.ndjson'));
  const recording = await readFile(
    join(REPO_ROOT, 'corpus/official/parallel-tools-out-of-order.ndjson'),
    'utf8',
  );
  // A log that a plain-text line got into, such as a shell's echo between the agent's records.
  await writeFile(join(folder, 'b-echo.ndjson'), `${recording}Installing dependencies...\n`);
  await writeFile(join(folder, 'c-echo.ndjson'), `Starting the agent\n${recording}`);
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('an exit code 1 for invalid lines says why in one line on stderr', () => {
  test('usage: how many, where, and that they are not counted', async () => {
    const run = await runCli(['usage', folder]);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toBe('');
    expect(run.stderr).toBe(
      `cursor-stream: ${join(folder, 'b-echo.ndjson')}: 2 invalid lines in 2 logs, the first here: not counted ` +
        '(cursor-stream validate lists them)\n',
    );
  });

  test('usage --json on one log names that log', async () => {
    const log = join(folder, 'c-echo.ndjson');
    const run = await runCli(['usage', '--json', log]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `cursor-stream: ${log}: 1 invalid line: not counted (cursor-stream validate lists them)\n`,
    );
  });

  test('export: the line comes before the totals, which still count every log', async () => {
    const run = await runCli(['export', '--format', 'otlp', '-o', join(folder, 'traces.out'), folder]);
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      `cursor-stream: ${join(folder, 'b-echo.ndjson')}: 2 invalid lines in 2 logs, the first here: exported as ` +
        'invalid-line events',
    );
    expect(lines[1]).toMatch(/^cursor-stream: exported 3 logs, 3 sessions, /);
  });

  test('report: the same line, and the page is written', async () => {
    const page = join(folder, 'report.html');
    const run = await runCli(['report', '-o', page, folder]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `cursor-stream: ${join(folder, 'b-echo.ndjson')}: 2 invalid lines in 2 logs, the first here: counted in the ` +
        "page's footer (cursor-stream validate lists them)\n",
    );
    expect(await readFile(page, 'utf8')).toContain('2 invalid lines');
  });

  test('a folder of clean logs exits 0 with nothing on stderr', async () => {
    const clean = join(folder, 'clean');
    await cp(join(REPO_ROOT, RECORDING), join(clean, 'a.ndjson'), { recursive: true });
    const run = await runCli(['usage', clean]);
    expect([run.code, run.stderr]).toEqual([0, '']);
  });
});

/** What a one-line reason says: a count of what was found, or whose log it is. */
const REASON = /^cursor-stream: .*(\d[\d,]* [a-z]|looks like a .* log)/;

/** Inputs each command reads: folders and files of the corpus, clean or not, and the folder of echoed lines. */
const INPUTS = [
  'corpus/official/',
  'corpus/official/failure-without-result.ndjson',
  'corpus/official/docs-example-zh.ndjson',
  'corpus/census/unknown-fields.ndjson',
  'corpus/foreign/codex-exec-json.ndjson',
  'corpus/payload-envelope/',
  'corpus/python-wrapper/',
];

/** Each command as it reads logs, its output to standard output; `bench` reads files only, once each. */
const COMMAND_LINES: Record<string, (input: string) => string[] | null> = {
  normalize: (input) => ['normalize', input],
  validate: (input) => ['validate', input],
  'validate --strict': (input) => ['validate', '--strict', '--json', input],
  summary: (input) => ['summary', '--json', input],
  render: (input) => ['render', input],
  census: (input) => ['census', input],
  report: (input) => ['report', '-o', '-', input],
  usage: (input) => ['usage', input],
  export: (input) => ['export', '--format', 'otlp', '-o', '-', input],
  bench: (input) =>
    statSync(resolve(REPO_ROOT, input)).isDirectory() ? null : ['bench', '--runs', '1', input],
};

describe('every command that exits 1 says why in one line on stderr', () => {
  test.each(Object.entries(COMMAND_LINES))('%s', async (_name, commandLine) => {
    const inputs = [...INPUTS, folder, join(folder, 'b-echo.ndjson')];
    const lines = inputs.map(commandLine).filter((line) => line !== null);
    const runs = await Promise.all(lines.map((line) => runCli(line)));
    const problems = runs.filter((run) => run.code === 1);
    // Each command meets input that makes it exit 1 here, so the check below is never vacuous.
    expect(problems.length).toBeGreaterThan(0);
    runs.forEach((run, at) => {
      const shown = `${lines[at]?.join(' ')}: ${run.stderr}`;
      expect([0, 1], shown).toContain(run.code);
      if (run.code === 1)
        expect(
          run.stderr.split('\n').some((line) => REASON.test(line)),
          shown,
        ).toBe(true);
    });
  });
});
