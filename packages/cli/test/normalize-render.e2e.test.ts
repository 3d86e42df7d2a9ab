import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CanonicalEvent } from '@cursor-stream/core';
import { REAL_CORPUS, REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { RECORDING, runCli, startCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

let scratch = '';
let recording = Buffer.alloc(0);

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-render-'));
  recording = await readFile(join(REPO_ROOT, RECORDING));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function parseLines(stdout: string): CanonicalEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as CanonicalEvent);
}

describe('normalize', () => {
  test('prints one canonical event per line, each located where its record starts', async () => {
    const run = await runCli(['normalize', RECORDING]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const events = parseLines(run.stdout);
    const lineStarts = [
      0,
      ...[...recording.entries()].filter(([, byte]) => byte === 0x0a).map(([at]) => at + 1),
    ];
    expect(events.map((event) => event.type)).toEqual([
      'stream-start',
      'user-message',
      'text-delta',
      'text-delta',
      'tool-call',
      'tool-result',
      'text-delta',
      'tool-call',
      'tool-result',
      'finish',
    ]);
    expect(events.map((event) => event.loc)).toEqual(
      events.map((_, index) => ({ line: index + 1, offset: lineStarts[index] })),
    );
  });

  const realShapes = [
    join(REPO_ROOT, 'corpus/official/stream-partial-output.ndjson'),
    ...REAL_CORPUS.ndjsonFiles().filter((path) => path.endsWith('experiments_direct-sleep.ndjson')),
  ];
  test.each(realShapes)(
    'the assistant text of a stream of the real shapes comes out exactly once: %s',
    async (path) => {
      const run = await runCli(['normalize', path]);
      const events = parseLines(run.stdout);
      const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
      const finish = events.find((event) => event.type === 'finish');
      expect(run.code).toBe(0);
      expect(finish?.type === 'finish' ? finish.text : undefined).toBe(text);
    },
  );

  test('writes every key a record gives beside a string it copies undecoded, `__proto__` too', async () => {
    const path = join(scratch, 'proto-key.ndjson');
    const content = JSON.stringify('y'.repeat(300_000));
    await writeFile(
      path,
      '{"type":"system","subtype":"init","session_id":"s","model":"Auto"}\n' +
        `{"type":"tool_call","subtype":"completed","call_id":"c1","session_id":"s","tool_call":{"readToolCall":{"args":{"path":"a"},"result":{"success":{"__proto__":{"polluted":true},"content":${content}}}}}}\n`,
    );
    const run = await runCli(['normalize', path]);
    const result = run.stdout.split('\n').find((line) => line.startsWith('{"type":"tool-result"')) ?? '';
    expect(result).toContain('"output":{"__proto__":{"polluted":true},"content":"yyy');
    expect(Object.keys((JSON.parse(result) as { output: object }).output)).toEqual(['__proto__', 'content']);
  });

  test('a truncated log gives an invalid-line event for the cut record and exits 1', async () => {
    const run = await runCli(['normalize'], { input: recording.subarray(0, recording.length - 40) });
    expect(run.code).toBe(1);
    const invalid = parseLines(run.stdout).filter((event) => event.type === 'invalid-line');
    expect(invalid).toMatchObject([{ code: 'truncated', loc: { line: 10 } }]);
  });

  test('a record above --max-record-bytes is skipped as oversize', async () => {
    const run = await runCli(['normalize', '--max-record-bytes', '300', RECORDING]);
    expect(run.code).toBe(1);
    const oversize = parseLines(run.stdout).filter(
      (event) => event.type === 'invalid-line' && event.code === 'oversize',
    );
    const longLines = recording
      .toString('utf8')
      .split('\n')
      .flatMap((line, index) => (Buffer.byteLength(line) > 300 ? [index + 1] : []));
    expect(longLines.length).toBeGreaterThan(0);
    expect(oversize.map((event) => event.loc?.line)).toEqual(longLines);
  });
});

describe('render', () => {
  test('prints a plain transcript when piped: prompt, text, tool calls with their arguments and outcome, status', async () => {
    const run = await runCli(['render', RECORDING]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).not.toContain('\u001b[');
    expect(run.stdout.split('\n')).toEqual([
      '── session c6b62c6f-7ead-4fd6-9922-e952131177ff · Claude 4 Sonnet · /Users/user/project',
      '> 閱讀 README.md 並建立摘要',
      '我會閱讀 README.md 檔案',
      '● read README.md',
      '  ✓ read README.md success · 54 lines',
      '並建立摘要',
      '● write summary.txt',
      '    fileText=(3 lines)',
      '  ✓ write summary.txt success · 19 lines written',
      '✓ done · 5.2 s',
      '',
    ]);
  });

  test('is colored when FORCE_COLOR asks, and NO_COLOR cannot undo a FORCE_COLOR', async () => {
    const run = await runCli(['render', RECORDING], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(run.stdout).toContain('\u001b[32m✓ done\u001b[39m');
  });

  test('--follow shows records as they are appended and stops cleanly on SIGINT', async () => {
    const path = join(scratch, 'live.ndjson');
    const cut = recording.indexOf('{"type":"tool_call"');
    await writeFile(path, recording.subarray(0, cut));
    const cli = startCli(['render', '--follow', path]);
    await cli.waitFor('我會閱讀 README.md 檔案');
    expect(cli.stdout).not.toContain('● read');
    await appendFile(path, recording.subarray(cut));
    await cli.waitFor('✓ done');
    cli.child.kill('SIGINT');
    expect(await cli.exited()).toBe(0);
    expect(cli.stdout.trimEnd().split('\n').at(-1)).toBe('✓ done · 5.2 s');
  });

  test('--follow says when the file is truncated and reads it again from its start', async () => {
    const path = join(scratch, 'rotated.ndjson');
    await writeFile(path, recording);
    const cli = startCli(['render', '--follow', path]);
    await cli.waitFor('✓ done');
    // Rewritten shorter, as a rotation with copytruncate or `> log` leaves it.
    await writeFile(
      path,
      [
        '{"type":"system","subtype":"init","session_id":"after-the-cut","model":"m"}',
        '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"written after the cut"}]},"session_id":"after-the-cut"}',
        'BAD LINE THREE',
        '',
      ].join('\n'),
    );
    await cli.waitFor('BAD LINE THREE');
    cli.child.kill('SIGINT');
    // The new file's lines are numbered from its start.
    expect(cli.stdout).toMatch(/line 3: [^\n]*BAD LINE THREE/);
    expect(cli.stdout).not.toMatch(/line 1[0-9]: [^\n]*BAD LINE THREE/);
    expect(await cli.exited()).toBe(1);
    expect(cli.stderr).toBe(
      `cursor-stream: ${path}: file truncated: reading it again from the start\n` +
        `cursor-stream: ${path}: 1 invalid line: shown in the transcript where they occur\n`,
    );
  });
});
