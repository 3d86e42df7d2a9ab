import { BUILT_IN_DIALECT_NAMES } from '@cursor-stream/core/dialect-registry';
import { describe, expect, test } from 'vitest';
import { main } from '../src/cli.ts';
import { oneLineUsageError } from '../src/program.ts';
import { fakeIo } from './support.ts';

describe('oneLineUsageError', () => {
  test("joins commander's suggestion onto the error line", () => {
    expect(oneLineUsageError("error: unknown option '--folow'\n(Did you mean --follow?)\n")).toBe(
      "cursor-stream: unknown option '--folow' (did you mean --follow?)",
    );
  });

  test('takes time linear in the argument: a long one of blanks is as quick as a short one', () => {
    // The pattern this replaced backtracked over every blank: 130 KB of them took tens of seconds. The bound here is
    // a count of steps, not a timing: the message must still carry the whole argument.
    const argument = `${' '.repeat(200_000)}x`;
    const line = oneLineUsageError(`error: unknown command '${argument}'\n`);
    expect(line).toBe(`cursor-stream: unknown command '${argument}'`);
  });

  test('escapes control and bidi characters of the argument', () => {
    expect(oneLineUsageError("error: unknown command 'a\u001b[31m\u202eb'")).toBe(
      "cursor-stream: unknown command 'a\\u001b[31m\\u202eb'",
    );
  });
});

describe('argument handling', () => {
  async function run(...argv: string[]) {
    const { io, stdout, stderr } = fakeIo();
    const code = await main(argv, io);
    return { code, stdout: stdout.text, stderr: stderr.text };
  }

  test.each([
    [['summary', '--bogus']],
    [['validate', 'x.ndjson', '--jobs', '0']],
    [['validate', 'x.ndjson', '--jobs', 'many']],
    [['normalize', '--dialect', 'klingon']],
    [['render', '--max-record-bytes', 'huge']],
    [['frobnicate']],
    [['validate']],
    [['summary', '-', 'b.ndjson', '-']],
    [[]],
  ])('%j is a usage error: exit 2 and one line on stderr', async (argv) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^cursor-stream: [^\n]+\n$/);
  });

  test('a misspelled option gets a suggestion on the same line', async () => {
    const result = await run('render', '--folow');
    expect(result.stderr).toBe("cursor-stream: unknown option '--folow' (did you mean --follow?)\n");
  });

  test('a --max-record-bytes the runtime cannot hold is refused on one line, exit 2', async () => {
    const result = await run('normalize', '--max-record-bytes', '1g', 'x.ndjson');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^cursor-stream: .*'1g'.*must be at most 268435456 bytes[^\n]*\n$/);
    expect((await run('normalize', '--max-record-bytes', '300m', 'x.ndjson')).code).toBe(2);
  });

  test('--jobs beyond the CPU count is lowered, with a note on stderr', async () => {
    const result = await run('validate', '--jobs', '100000', 'corpus/official/docs-example-zh.ndjson');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^cursor-stream: --jobs 100000 lowered to \d+, the number of CPUs/);
  });

  test('a file name with a line feed, an escape and a bidi override is printed escaped', async () => {
    const result = await run('summary', 'no\nsuch\u001b[31mfile\u202e.ndjson');
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'cursor-stream: no\\nsuch\\u001b[31mfile\\u202e.ndjson: no such file\n',
    });
  });

  test('a bad --jobs value says what is wrong with it', async () => {
    const result = await run('validate', 'x.ndjson', '--jobs', '0');
    expect(result.stderr).toContain('must be a positive integer');
  });

  test('--version prints the package version and exits 0', async () => {
    const result = await run('--version');
    expect(result).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  test.each([['normalize'], ['validate'], ['summary'], ['render'], ['census'], ['bench']])(
    '%s --help exits 0 and documents the dialects and the exit codes',
    async (command) => {
      const result = await run(command, '--help');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: cursor-stream ${command}`);
      expect(result.stdout.replace(/\s+/g, ' ')).toContain(
        `choices: ${['auto', ...BUILT_IN_DIALECT_NAMES].map((name) => `"${name}"`).join(', ')}, default: "auto"`,
      );
      expect(result.stdout).toMatch(
        /Exit codes:\n {2}0 {2}.+\n {2}1 {2}.+\n(?:.*\n)*? {2}2 {2}usage error, or I\/O error/,
      );
    },
  );

  test('the top-level help lists every command', async () => {
    const result = await run('--help');
    const commands = result.stdout
      .match(/^ {2}([a-z]+) \[options\]/gm)
      ?.map((line) => line.trim().split(' ')[0]);
    expect(commands).toEqual([
      'normalize',
      'validate',
      'summary',
      'render',
      'census',
      'report',
      'usage',
      'export',
      'serve',
      'bench',
    ]);
  });
});

describe('a failure of the command itself', () => {
  test('is one line on stderr naming it, exit 70, not a stack trace', async () => {
    const { io, stdout, stderr } = fakeIo([
      '{"type":"system","subtype":"init","session_id":"s","model":"m"}\n',
    ]);
    // An environment that throws when read stands for any fault of the command's own.
    const broken = {
      ...io,
      env: new Proxy({} as Record<string, string>, {
        get() {
          throw new TypeError('the environment cannot be read');
        },
      }),
    };
    const code = await main(['summary', '-'], broken);
    expect(code).toBe(70);
    expect(stderr.text).toBe(
      'cursor-stream: internal error (TypeError: the environment cannot be read); please report it with the command and its input\n',
    );
    expect(stdout.text).not.toMatch(/\n\s+at /);
  });
});
