import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { CLI_BIN, RECORDING, runCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

let scratch = '';

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-errors-'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('standard input that cannot be read as a log', () => {
  test('a directory on stdin exits 2', async () => {
    const { spawnSync } = await import('node:child_process');
    const { openSync, closeSync } = await import('node:fs');
    const directory = openSync(join(REPO_ROOT, 'corpus'), 'r');
    try {
      const run = spawnSync(process.execPath, [CLI_BIN, 'summary', '-'], {
        stdio: [directory, 'pipe', 'pipe'],
        encoding: 'utf8',
      });
      expect(run.status).toBe(2);
      expect(run.stderr.trim()).toBe('cursor-stream: <stdin>: is a directory, not a log file');
    } finally {
      closeSync(directory);
    }
  });

  test.each([
    ['summary'],
    ['render'],
    ['normalize'],
    ['validate'],
    ['census'],
    ['report', '-o', '-'],
    ['usage'],
    ['export', '--format', 'otlp', '-o', '-'],
  ])('naming stdin twice is a usage error for %s', async (...command) => {
    const run = await runCli([...command, '-', RECORDING, '-'], { input: '{}\n' });
    expect([run.code, run.stdout, run.stderr]).toEqual([
      2,
      '',
      'cursor-stream: standard input (-) can be read only once\n',
    ]);
  });
});

describe('I/O errors exit 2 with one line on stderr naming the file', () => {
  test.each(['normalize', 'summary', 'render', 'validate'])('%s on a missing file', async (command) => {
    const run = await runCli([command, 'missing.ndjson']);
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'cursor-stream: missing.ndjson: no such file\n',
    });
  });

  test('census on a missing file, and on a file that is not text, besides what it did read', async () => {
    const binary = join(scratch, 'census-binary.ndjson');
    await writeFile(binary, Buffer.from('{"a":1}\u0000\n'));
    for (const json of [[], ['--json']]) {
      const run = await runCli(['census', ...json, 'missing.ndjson', RECORDING, binary]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `cursor-stream: missing.ndjson: no such file\ncursor-stream: ${binary}: not a text log (NUL byte at offset 7)\n`,
      );
    }
  });

  test('a directory with no log in it', async () => {
    const empty = join(scratch, 'empty');
    await mkdir(empty);
    const run = await runCli(['summary', empty]);
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `cursor-stream: ${empty}: no .ndjson, .jsonl or .log files (or their .gz) in this directory\n`,
    });
  });

  test('a binary file', async () => {
    const path = join(scratch, 'program.ndjson');
    await writeFile(path, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00]));
    const run = await runCli(['normalize', path]);
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `cursor-stream: ${path}: not a text log (NUL byte at offset 7)\n`,
    });
  });

  test('binary data on standard input', async () => {
    const run = await runCli(['summary'], { input: Buffer.from('{"a":1}\u0000\n') });
    expect(run).toMatchObject({
      code: 2,
      stderr: 'cursor-stream: <stdin>: not a text log (NUL byte at offset 7)\n',
    });
  });

  test('a .gz file that is not gzip', async () => {
    const path = join(scratch, 'fake.ndjson.gz');
    await writeFile(path, '{"type":"user"}\n');
    const run = await runCli(['summary', path]);
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `cursor-stream: ${path}: not valid gzip data\n`,
    });
  });

  test('an unreadable file', async () => {
    const path = join(scratch, 'locked.ndjson');
    await writeFile(path, '{}\n', { mode: 0o000 });
    const run = await runCli(['summary', path]);
    // Root reads any file, so the check only means something for other users.
    const expected = process.getuid?.() === 0 ? 1 : 2;
    expect(run.code).toBe(expected);
  });
});

describe('usage errors exit 2 with one line on stderr', () => {
  test.each([
    [['summary', '--nope', RECORDING], "cursor-stream: unknown option '--nope'\n"],
    [['bogus'], "cursor-stream: unknown command 'bogus'\n"],
    [
      ['validate', '--jobs', '0', RECORDING],
      "cursor-stream: option '--jobs <n>' argument '0' is invalid. must be a positive integer\n",
    ],
    [
      ['render', '--dialect', 'other', RECORDING],
      expect.stringMatching(
        /^cursor-stream: option '--dialect <name>' argument 'other' is invalid\. Allowed choices are auto, cursor-sdk, official, python-wrapper, payload-envelope, acp\.\n$/,
      ),
    ],
    [
      ['render', '--follow', '-'],
      'cursor-stream: <stdin>: --follow needs a plain file (standard input and gzip files cannot be tailed)\n',
    ],
    [[], 'cursor-stream: missing command (see cursor-stream --help)\n'],
  ])('%j', async (argv, stderr) => {
    const run = await runCli(argv);
    expect(run).toMatchObject({ code: 2, stdout: '', stderr });
  });
});

describe('help and version', () => {
  test('--version prints the version and exits 0', async () => {
    expect(await runCli(['--version'])).toMatchObject({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  test('help of a command that does not exist says so in one line, as the command itself would, and exits 2', async () => {
    const [help, direct] = await Promise.all([runCli(['help', 'nosuch']), runCli(['nosuch'])]);
    expect([help.code, help.stdout, help.stderr]).toEqual([
      2,
      '',
      "cursor-stream: unknown command 'nosuch'\n",
    ]);
    expect([direct.code, direct.stderr]).toEqual([2, help.stderr]);
    expect((await runCli(['help', 'summary'])).stdout).toMatch(/^Usage: cursor-stream summary /);
  });

  test.each(['normalize', 'validate', 'summary', 'render'])(
    '%s --help exits 0 with the usage on stdout',
    async (command) => {
      const run = await runCli([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: cursor-stream ${command} `));
    },
  );
});

describe('an output that is one of the logs read', () => {
  test('report and export refuse it, by any name, with one line and exit 2, and the log is left as it was', async () => {
    const folder = join(scratch, 'over-input');
    await mkdir(folder, { recursive: true });
    const log = join(folder, 'run.ndjson');
    const text = await readFile(RECORDING, 'utf8');
    await writeFile(log, text);
    const runs = await Promise.all([
      runCli(['report', log, '-o', log]),
      runCli(['report', folder, '-o', join(folder, '.', 'run.ndjson')]),
      runCli(['export', '--format', 'otlp', log, '-o', log]),
    ]);
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /^cursor-stream: [^\n]*: -o names a log this command reads \([^\n]*\): it would be lost\n$/,
      );
    }
    expect(await readFile(log, 'utf8')).toBe(text);
    // A new file, or one that is no input, is written as always.
    const page = join(folder, 'page.html');
    expect((await runCli(['report', log, '-o', page])).code).toBe(0);
    expect((await runCli(['report', log, '-o', page])).code).toBe(0);
  });
});

describe('an output that would be one of the logs read', () => {
  test('report and export refuse standard input by its /dev names when the log comes on it, and leave the log', async () => {
    const { spawnSync } = await import('node:child_process');
    const { openSync, closeSync } = await import('node:fs');
    const log = join(scratch, 'stdin-victim.ndjson');
    const text = await readFile(RECORDING, 'utf8');
    await writeFile(log, text);
    for (const args of [
      ['report', '-', '-o', '/dev/stdin'],
      ['export', '--format', 'otlp', '-', '-o', '/dev/fd/0'],
    ]) {
      const input = openSync(log, 'r');
      try {
        const run = spawnSync(process.execPath, [CLI_BIN, ...args], {
          stdio: [input, 'pipe', 'pipe'],
          encoding: 'utf8',
        });
        expect([run.status, run.stderr]).toEqual([
          2,
          `cursor-stream: ${args.at(-1)}: -o names a log this command reads (standard input): it would be lost\n`,
        ]);
      } finally {
        closeSync(input);
      }
      expect(await readFile(log, 'utf8')).toBe(text);
    }
  });

  test('a new output named like a log inside a folder read is refused, as the walk would read it back', async () => {
    const folder = join(scratch, 'walked');
    await mkdir(join(folder, 'deeper'), { recursive: true });
    await writeFile(join(folder, 'run.ndjson'), await readFile(RECORDING, 'utf8'));
    for (const output of [join(folder, 'report.log'), join(folder, 'deeper', 'out.ndjson')]) {
      const run = await runCli(['report', folder, '-o', output]);
      expect([run.code, run.stderr]).toEqual([
        2,
        `cursor-stream: ${output}: -o is a log name in a folder this command reads (${folder}): it would read its own output; write it elsewhere or name it otherwise\n`,
      ]);
    }
    // A page, or a log beside the folder, is written as always.
    expect((await runCli(['report', folder, '-o', join(folder, 'report.html')])).code).toBe(0);
    expect(
      (await runCli(['export', '--format', 'otlp', folder, '-o', join(scratch, 'walked.jsonl')])).code,
    ).toBe(0);
  });
});

describe('standard output written into a log the command reads (> logs/all.log, >> run.ndjson)', () => {
  /** Runs the CLI with its standard output appended to `output`, and standard input from `input` when given. */
  async function intoFile(args: string[], output: string, input?: string) {
    const { spawnSync } = await import('node:child_process');
    const { openSync, closeSync } = await import('node:fs');
    const out = openSync(output, 'a');
    const stdin = input === undefined ? 'ignore' : openSync(input, 'r');
    try {
      const run = spawnSync(process.execPath, [CLI_BIN, ...args], {
        stdio: [stdin, out, 'pipe'],
        encoding: 'utf8',
        timeout: 60_000,
      });
      return { code: run.status, stderr: run.stderr };
    } finally {
      closeSync(out);
      if (typeof stdin === 'number') closeSync(stdin);
    }
  }
  const refused = (path: string) =>
    `cursor-stream: ${path}: is where this command's standard output goes: reading it would read its own output\n`;

  test.each(['render', 'normalize', 'summary'])(
    '%s of a folder refuses the log its output goes to, reads the others, and ends',
    async (command) => {
      const folder = join(scratch, `into-${command}`);
      await mkdir(folder, { recursive: true });
      const log = join(folder, 'run.ndjson');
      await writeFile(log, `${await readFile(RECORDING, 'utf8')}not a record\n`);
      const output = join(folder, 'all.log');
      const run = await intoFile([command, folder], output);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(refused(output));
      expect((await readFile(output, 'utf8')).length).toBeLessThan(100_000);
    },
  );

  test('normalize of a log appended to itself, by name or on standard input, refuses it and leaves it', async () => {
    const log = join(scratch, 'self.ndjson');
    const text = await readFile(RECORDING, 'utf8');
    await writeFile(log, text);
    expect(await intoFile(['normalize', log], log)).toEqual({ code: 2, stderr: refused(log) });
    expect(await intoFile(['normalize', '-'], log, log)).toEqual({ code: 2, stderr: refused('<stdin>') });
    expect(await readFile(log, 'utf8')).toBe(text);
  });
});

describe('output streams whose reader goes away', () => {
  /** A log whose normalized events are many pipe buffers long, with invalid lines: `validate` exits 1 on it. */
  async function longLog(): Promise<string> {
    const path = join(scratch, 'long.ndjson');
    const recording = await readFile(join(REPO_ROOT, RECORDING), 'utf8');
    await writeFile(path, `${recording.repeat(400)}not a record\n`);
    return path;
  }

  /** Runs the CLI with its stdout or stderr a pipe that is closed after the first bytes come out of it. */
  async function closingEarly(args: string[], stream: 'stdout' | 'stderr') {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [CLI_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const other = stream === 'stdout' ? child.stderr : child.stdout;
    let kept = '';
    other.on('data', (chunk: Buffer) => {
      kept += chunk.toString();
    });
    const closing = child[stream];
    if (stream === 'stderr') closing.destroy();
    else closing.once('data', () => closing.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, kept };
  }

  test("a stdout closed early (| head) exits 141, as SIGPIPE's, never 0 (no problems) nor a stack trace", async () => {
    const run = await closingEarly(['normalize', await longLog()], 'stdout');
    expect(run).toEqual({ code: 141, kept: '' });
  });

  test('a stderr that cannot be written is no failure of the command: it exits as it would have', async () => {
    const path = await longLog();
    const run = await closingEarly(['validate', path], 'stderr');
    expect(run.code).toBe(1);
    expect(run.kept).toContain('not a record');
  });
});
