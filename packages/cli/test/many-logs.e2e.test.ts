import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SummaryJson } from '@cursor-stream/inspect/summary';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { runCli } from '@cursor-stream/test-kit/run-cli';
import { type ScratchFolder, scratchFolder } from '@cursor-stream/test-kit/scratch';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// `summary`, `render` and `normalize` take files, directories and `-`: several logs read one after the other give
// what each gives alone, in order, each part named by its file; one log gives what it always gave.

const DOCS = 'corpus/official/docs-example-zh.ndjson';
const PARALLEL = 'corpus/official/parallel-tools-out-of-order.ndjson';
/** A log with invalid lines (plain text around the agent's records). */
const FAILURE = 'corpus/official/failure-without-result.ndjson';
const NOTICES = 'corpus/official/compaction-and-notices.ndjson';
const CLAUDE = 'corpus/captures/foreign/harness-cli-normalizer__claude-code.ndjson';

let scratch: ScratchFolder;
/** A folder of three Cursor logs, one in a subfolder, and a file the walk does not pick up. */
let logs = '';
/** The same three logs, in the walk's order. */
let logFiles: string[] = [];
/** The same logs with another agent's log among them. */
let mixed = '';
/** The logs of `mixed`, in the walk's order, and the Cursor logs among them. */
let mixedFiles: string[] = [];
let cursorFiles: string[] = [];
/** What a command says of the other agent's log of `mixed` when it leaves it out. */
let leftOut = '';

beforeAll(async () => {
  scratch = scratchFolder('many-logs');
  logs = join(scratch.dir, 'logs');
  await mkdir(join(logs, 'later'), { recursive: true });
  logFiles = [join(logs, 'a-docs.ndjson'), join(logs, 'b-failure.ndjson'), join(logs, 'later', 'c.ndjson')];
  await copyFile(join(REPO_ROOT, DOCS), logFiles[0] as string);
  await copyFile(join(REPO_ROOT, FAILURE), logFiles[1] as string);
  await copyFile(join(REPO_ROOT, PARALLEL), logFiles[2] as string);
  await writeFile(join(logs, 'notes.txt'), 'not a log\n');
  mixed = join(scratch.dir, 'mixed');
  await mkdir(mixed);
  await copyFile(join(REPO_ROOT, DOCS), join(mixed, 'a-cursor.ndjson'));
  await copyFile(join(REPO_ROOT, CLAUDE), join(mixed, 'b-claude.ndjson'));
  await copyFile(join(REPO_ROOT, PARALLEL), join(mixed, 'c-cursor.ndjson'));
  mixedFiles = ['a-cursor.ndjson', 'b-claude.ndjson', 'c-cursor.ndjson'].map((name) => join(mixed, name));
  cursorFiles = [mixedFiles[0] as string, mixedFiles[2] as string];
  leftOut =
    `cursor-stream: ${mixedFiles[1]}: line 1: this looks like a Claude Code stream-json log, ` +
    'not cursor-agent; left out\n';
});

afterAll(() => scratch.remove());

function summaryOf(stdout: string): SummaryJson {
  return JSON.parse(stdout) as SummaryJson;
}

/** `summary --json` of each log alone. */
async function summariesAlone(paths: readonly string[]): Promise<SummaryJson[]> {
  const runs = await Promise.all(paths.map((path) => runCli(['summary', '--json', path])));
  return runs.map((run) => summaryOf(run.stdout));
}

describe('summary of several logs', () => {
  test('--json is one document: the sessions and invalid lines of each log in order, named by file, and the sums', async () => {
    const [run, alone] = await Promise.all([runCli(['summary', '--json', logs]), summariesAlone(logFiles)]);
    expect(run.code).toBe(1);
    const document = summaryOf(run.stdout);
    expect(document).toEqual({
      sessions: alone.flatMap((one, at) =>
        one.sessions.map((session) => ({ file: logFiles[at], ...session })),
      ),
      invalidLines: alone.flatMap((one, at) =>
        one.invalidLines.map((line) => ({ file: logFiles[at], ...line })),
      ),
      lines: alone.reduce((sum, one) => sum + one.lines, 0),
      bytes: alone.reduce((sum, one) => sum + one.bytes, 0),
      files: 3,
    });
    expect(document.invalidLines.length).toBeGreaterThan(0);
    // The file comes first in each session, where a reader of the document looks.
    expect(Object.keys(document.sessions[0] ?? {})[0]).toBe('file');
    expect(run.stderr).toBe(
      `cursor-stream: ${logFiles[1]}: ${document.invalidLines.length} invalid lines: listed in the summary ` +
        '(cursor-stream validate says what is wrong with them)\n',
    );
  });

  test('the table names the file of each session, and the input line counts the logs', async () => {
    const run = await runCli(['summary', DOCS, PARALLEL]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const fileRows = run.stdout.split('\n').filter((line) => line.startsWith('  file '));
    expect(fileRows.map((line) => line.replace(/^ {2}file +/, ''))).toEqual([DOCS, PARALLEL]);
    expect(run.stdout).toMatch(/\ninput 2 logs, \d+ lines, [^,]+, 2 sessions, no invalid lines\n$/);
  });

  test('- among files reads standard input in its place', async () => {
    const input = await readFile(join(REPO_ROOT, PARALLEL));
    const [run, alone] = await Promise.all([
      runCli(['summary', '--json', DOCS, '-', NOTICES], { input }),
      summariesAlone([DOCS, PARALLEL, NOTICES]),
    ]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const names = [DOCS, '<stdin>', NOTICES];
    expect(summaryOf(run.stdout).sessions).toEqual(
      alone.flatMap((one, at) => one.sessions.map((session) => ({ file: names[at], ...session }))),
    );
  });

  test('standard input named twice is a usage error', async () => {
    const run = await runCli(['summary', '-', DOCS, '-']);
    expect([run.code, run.stdout, run.stderr]).toEqual([
      2,
      '',
      'cursor-stream: standard input (-) can be read only once\n',
    ]);
  });

  test("another agent's log in a folder is named on stderr and left out of the sessions", async () => {
    const [run, alone] = await Promise.all([
      runCli(['summary', '--json', mixed]),
      summariesAlone([join(mixed, 'a-cursor.ndjson'), join(mixed, 'c-cursor.ndjson')]),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `cursor-stream: ${join(mixed, 'b-claude.ndjson')}: line 1: this looks like a Claude Code stream-json log, ` +
        'not cursor-agent; left out\n',
    );
    const document = summaryOf(run.stdout);
    expect(document.sessions.map((session) => session.file)).toEqual([
      join(mixed, 'a-cursor.ndjson'),
      join(mixed, 'c-cursor.ndjson'),
    ]);
    expect(document.sessions.map(({ file: _file, ...session }) => session)).toEqual(
      alone.flatMap((one) => one.sessions),
    );
  });

  test('an unreadable path among good ones is reported, the others are read, and the exit code is 2', async () => {
    const missing = join(scratch.dir, 'missing.ndjson');
    const [run, alone] = await Promise.all([
      runCli(['summary', '--json', DOCS, missing, PARALLEL]),
      summariesAlone([DOCS, PARALLEL]),
    ]);
    expect([run.code, run.stderr]).toEqual([2, `cursor-stream: ${missing}: no such file\n`]);
    expect(summaryOf(run.stdout).sessions.map(({ file: _file, ...session }) => session)).toEqual(
      alone.flatMap((one) => one.sessions),
    );
    expect(summaryOf(run.stdout).files).toBe(2);
  });

  test('one log, named or piped, gives the one-log document: no file anywhere, no count of logs', async () => {
    const input = await readFile(join(REPO_ROOT, FAILURE));
    const [named, piped, table] = await Promise.all([
      runCli(['summary', '--json', FAILURE]),
      runCli(['summary', '--json'], { input }),
      runCli(['summary', FAILURE]),
    ]);
    expect(named.stdout).toBe(piped.stdout);
    expect(Object.keys(summaryOf(named.stdout))).toEqual(['sessions', 'invalidLines', 'lines', 'bytes']);
    expect(named.stdout).not.toContain('"file"');
    expect(table.stdout).not.toMatch(/^ {2}file /m);
    expect(table.stdout).toMatch(/\ninput \d+ lines,/);
  });
});

/** stdout of `command` on each log alone. */
async function outputsAlone(command: string, paths: readonly string[]): Promise<string[]> {
  const runs = await Promise.all(paths.map((path) => runCli([command, path])));
  return runs.map((run) => run.stdout);
}

describe('render of several logs', () => {
  test('each transcript, as the log alone gives it, under a line naming its file', async () => {
    const [run, alone] = await Promise.all([runCli(['render', logs]), outputsAlone('render', logFiles)]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(alone.map((text, at) => `══ ${logFiles[at]}\n${text}`).join(''));
    expect(run.stderr).toBe(
      `cursor-stream: ${logFiles[1]}: 2 invalid lines: shown in the transcript where they occur\n`,
    );
  });

  test('- among files reads standard input in its place', async () => {
    const input = await readFile(join(REPO_ROOT, PARALLEL));
    const [run, alone] = await Promise.all([
      runCli(['render', '-', DOCS], { input }),
      outputsAlone('render', [PARALLEL, DOCS]),
    ]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe(`══ <stdin>\n${alone[0]}══ ${DOCS}\n${alone[1]}`);
  });

  test.each([
    ['in a folder', () => [mixed]],
    ['among the arguments', () => mixedFiles],
  ])("another agent's log %s is named on stderr and left out, header and all", async (_how, args) => {
    const [run, alone] = await Promise.all([
      runCli(['render', ...args()]),
      outputsAlone('render', [cursorFiles[0] as string, cursorFiles[1] as string]),
    ]);
    expect([run.code, run.stderr]).toEqual([1, leftOut]);
    expect(run.stdout).toBe(`══ ${cursorFiles[0]}\n${alone[0]}══ ${cursorFiles[1]}\n${alone[1]}`);
  });

  test('an unreadable path among good ones is reported, the others rendered, and the exit code is 2', async () => {
    const missing = join(scratch.dir, 'missing.ndjson');
    const [run, alone] = await Promise.all([
      runCli(['render', DOCS, missing, PARALLEL]),
      outputsAlone('render', [DOCS, PARALLEL]),
    ]);
    expect([run.code, run.stderr]).toEqual([2, `cursor-stream: ${missing}: no such file\n`]);
    expect(run.stdout).toBe(`══ ${DOCS}\n${alone[0]}══ ${missing}\n══ ${PARALLEL}\n${alone[1]}`);
  });

  test('--follow tails one plain file: several logs are a usage error', async () => {
    const run = await runCli(['render', '--follow', DOCS, PARALLEL]);
    expect([run.code, run.stdout, run.stderr]).toEqual([
      2,
      '',
      'cursor-stream: --follow tails one plain file, not 2 logs\n',
    ]);
  });

  test('one log gives its transcript with no header', async () => {
    const input = await readFile(join(REPO_ROOT, DOCS));
    const [named, piped] = await Promise.all([runCli(['render', DOCS]), runCli(['render'], { input })]);
    expect(named.stdout).toBe(piped.stdout);
    expect(named.stdout).not.toContain('══');
  });
});

/** Each line of `normalize` on several logs is the line one log gives, with its file as first field. */
function withFile(file: string, lines: string): string {
  return lines
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `{"file":${JSON.stringify(file)},${line.slice(1)}\n`)
    .join('');
}

describe('normalize of several logs', () => {
  test("each log's lines in order, each with its file first and otherwise as the log alone gives it", async () => {
    const [run, alone] = await Promise.all([
      runCli(['normalize', logs]),
      outputsAlone('normalize', logFiles),
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(alone.map((lines, at) => withFile(logFiles[at] as string, lines)).join(''));
    expect(run.stderr).toBe(
      `cursor-stream: ${logFiles[1]}: 2 invalid lines: written as invalid-line events\n`,
    );
    for (const line of run.stdout.trimEnd().split('\n'))
      expect(Object.keys(JSON.parse(line))[0]).toBe('file');
  });

  test('- among files reads standard input in its place', async () => {
    const input = await readFile(join(REPO_ROOT, PARALLEL));
    const [run, alone] = await Promise.all([
      runCli(['normalize', DOCS, '-'], { input }),
      outputsAlone('normalize', [DOCS, PARALLEL]),
    ]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe(withFile(DOCS, alone[0] ?? '') + withFile('<stdin>', alone[1] ?? ''));
  });

  test.each([
    ['in a folder', () => [mixed]],
    ['among the arguments', () => mixedFiles],
  ])("another agent's log %s is named on stderr and left out, the others written", async (_how, args) => {
    const [run, alone] = await Promise.all([
      runCli(['normalize', ...args()]),
      outputsAlone('normalize', [cursorFiles[0] as string, cursorFiles[1] as string]),
    ]);
    expect([run.code, run.stderr]).toEqual([1, leftOut]);
    expect(run.stdout).toBe(
      withFile(cursorFiles[0] as string, alone[0] ?? '') + withFile(cursorFiles[1] as string, alone[1] ?? ''),
    );
  });

  test('an unreadable path among good ones is reported, the others written, and the exit code is 2', async () => {
    const missing = join(scratch.dir, 'missing.ndjson');
    const [run, alone] = await Promise.all([
      runCli(['normalize', DOCS, missing, PARALLEL]),
      outputsAlone('normalize', [DOCS, PARALLEL]),
    ]);
    expect([run.code, run.stderr]).toEqual([2, `cursor-stream: ${missing}: no such file\n`]);
    expect(run.stdout).toBe(withFile(DOCS, alone[0] ?? '') + withFile(PARALLEL, alone[1] ?? ''));
  });

  test('standard input named twice is a usage error', async () => {
    const run = await runCli(['normalize', '-', '-']);
    expect([run.code, run.stdout, run.stderr]).toEqual([
      2,
      '',
      'cursor-stream: standard input (-) can be read only once\n',
    ]);
  });
});

describe('logs whose names hold a newline, and a backslash and an n', () => {
  // A name with a newline escaped for a terminal reads as another name; JSON is for programs, which must be able to
  // open the file they are told about, and JSON escapes any character itself.
  test('summary, usage, census and normalize name each by its own name in JSON, and two names stay two', async () => {
    const { mkdtemp, mkdir, copyFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join: joinPath } = await import('node:path');
    const { RECORDING, runCli: run } = await import('@cursor-stream/test-kit/run-cli');
    const { REPO_ROOT: root } = await import('@cursor-stream/test-kit/corpus');
    const folder = joinPath(await mkdtemp(joinPath(tmpdir(), 'cursor-stream-names-')), 'logs');
    await mkdir(folder);
    const names = ['a\nb.ndjson', 'a\\nb.ndjson'].map((name) => joinPath(folder, name));
    for (const name of names) await copyFile(joinPath(root, RECORDING), name);
    const [summary, usage, census, normalize] = await Promise.all([
      run(['summary', '--json', folder]),
      run(['usage', '--json', '--by', 'session', folder]),
      run(['census', '--json', folder]),
      run(['normalize', folder]),
    ]);
    const sorted = [...names].sort();
    expect(
      JSON.parse(summary.stdout)
        .sessions.map((session: { file: string }) => session.file)
        .sort(),
    ).toEqual(sorted);
    expect(
      JSON.parse(usage.stdout)
        .sessions.map((row: { file: string }) => row.file)
        .sort(),
    ).toEqual(sorted);
    expect(JSON.parse(census.stdout).rows[0].first.path).toBe(sorted[0]);
    const files = new Set(
      normalize.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { file: string }).file),
    );
    expect([...files].sort()).toEqual(sorted);
  });
});
