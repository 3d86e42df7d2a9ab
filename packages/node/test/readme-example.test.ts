import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { installFakeAgent } from '@cursor-stream/test-kit/fake-agent';
import { scratchFolder } from '@cursor-stream/test-kit/scratch';
import { afterAll, describe, expect, test } from 'vitest';

const EXAMPLE = join(import.meta.dirname, '../examples/embed.ts');
/** Where the example is shown: the package's README, and the repository's among its recipes. */
const SHOWN_IN = [
  { readme: join(import.meta.dirname, '../README.md'), heading: '### Example' },
  { readme: join(import.meta.dirname, '../../../README.md'), heading: '## Embed it in an app' },
];
const TSX_CLI = createRequire(import.meta.url).resolve('tsx/cli');

const bin = scratchFolder('node');
afterAll(() => bin.remove());

/** Runs the example as the README says, with the fake agent as the only cursor-agent on the PATH. */
function runExample(vars: Record<string, string>, prompt: string) {
  installFakeAgent(bin.dir);
  const args = [TSX_CLI, '--conditions=@cursor-stream/source', EXAMPLE, prompt];
  const env = { ...process.env, PATH: `${bin.dir}:${process.env.PATH ?? ''}`, ...vars };
  return spawnSync(process.execPath, args, { env, encoding: 'utf8', timeout: 60_000 });
}

describe('the README embedding example', () => {
  test.each(SHOWN_IN)(
    'is the example file, word for word, in ten lines, under $heading',
    ({ readme, heading }) => {
      const text = readFileSync(readme, 'utf8');
      expect(text).toContain(`\n${heading}\n`);
      const section = text.slice(text.indexOf(`\n${heading}\n`));
      const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
      const example = readFileSync(EXAMPLE, 'utf8');
      expect(block).toBe(example);
      expect(example.trimEnd().split('\n')).toHaveLength(10);
    },
  );

  test('prints the assistant text and the duration of a successful run', () => {
    const { stdout, status } = runExample({ FAKE_AGENT_REPLAY: DOCS_EXAMPLE }, 'Summarize README.md');
    expect(stdout).toContain('我會閱讀 README.md 檔案');
    expect(stdout).toContain('[read]');
    expect(stdout).toContain('done in 5234 ms');
    expect(status).toBe(0);
  });

  test('prints the error code and exits 1 when the agent fails', () => {
    const { stdout, status } = runExample(
      { FAKE_AGENT_EXIT: '1', FAKE_AGENT_STDERR: 'Not logged in\n' },
      'hi',
    );
    expect(stdout).toContain('exit-nonzero: cursor-agent exited with code 1: Not logged in');
    expect(status).toBe(1);
  });
});
