import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { runCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// The commands that read many logs name another agent's log as such, as validate and summary do, instead of
// counting, drawing or exporting it as if it were cursor-agent's.
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-foreign-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe.each([
  ['claude-code-stream-json', 'Claude Code stream-json'],
  ['codex-exec-json', 'Codex exec --json'],
  ['gemini-cli-stream-json', 'Gemini CLI stream-json'],
])('a %s log', (name, format) => {
  const path = join(REPO_ROOT, 'corpus/foreign', `${name}.ndjson`);
  const said = `cursor-stream: ${path}: line 1: this looks like a ${format} log, not cursor-agent\n`;

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
