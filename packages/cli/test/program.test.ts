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
    [['summary', 'a.ndjson', 'b.ndjson']],
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
        'choices: "auto", "official", "python-wrapper", "payload-envelope", default: "auto"',
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
      'usage',
      'export',
      'bench',
    ]);
  });
});
