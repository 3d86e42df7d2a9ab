/**
 * The examples each command's `--help` shows are run as a user would type them, from a folder that holds the
 * repository's corpus, so that an example cannot stop working unseen.
 */
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { runCli, startCli } from '@cursor-stream/test-kit/run-cli';
import { type ScratchFolder, scratchFolder } from '@cursor-stream/test-kit/scratch';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COMMANDS } from '../src/commands/index.ts';

let scratch: ScratchFolder;

/**
 * The corpus's own folders, copied (the walk over a folder does not follow links); not `generated/`, where a working
 * copy keeps the benchmark's corpora of gigabytes.
 */
const CORPUS_FOLDERS = readdirSync(CORPUS_DIR).filter((name) => name !== 'generated');

beforeAll(async () => {
  scratch = scratchFolder('help-examples');
  const corpus = join(scratch.dir, 'corpus');
  await mkdir(corpus);
  for (const name of CORPUS_FOLDERS)
    await cp(join(CORPUS_DIR, name), join(corpus, name), { recursive: true });
});

afterAll(() => scratch.remove());

/** The command lines of the `Examples:` section of a help text, without the leading `cursor-stream`. */
function examplesOf(help: string): string[][] {
  const section = help.split('\nExamples:\n')[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('  cursor-stream '))
    .map((line) => line.trim().split(/ +/).slice(1));
}

/** Waits until `serve` says it serves, or why it cannot, on stderr; then stops it. */
async function serveExample(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const cli = startCli(args, { cwd: scratch.dir });
  for (
    let waited = 0;
    waited < 600 && !/serving on|cannot listen|cursor-stream: /.test(cli.stderr);
    waited++
  ) {
    if (cli.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  cli.child.kill('SIGTERM');
  return { code: await cli.exited(), stderr: cli.stderr };
}

describe.each(Object.keys(COMMANDS))('the examples of %s --help', (name) => {
  test('are two or three, each a command line of this command with no shell syntax', async () => {
    const help = await runCli([name, '--help']);
    expect(help.code).toBe(0);
    const examples = examplesOf(help.stdout);
    expect(examples.length).toBeGreaterThanOrEqual(2);
    expect(examples.length).toBeLessThanOrEqual(3);
    for (const args of examples) {
      expect(args[0]).toBe(name);
      expect(args.join(' ')).not.toMatch(/["'|<>;&$`]/);
    }
  });

  test('run on the corpus: they exit 0, or 1 with the reason on stderr, and write what they say', async () => {
    const help = await runCli([name, '--help']);
    for (const args of examplesOf(help.stdout)) {
      if (name === 'serve') {
        const served = await serveExample(args);
        // A fixed port another program holds is the machine's business, not the example's.
        if (/cannot listen on .*EADDRINUSE/.test(served.stderr)) continue;
        expect(served.stderr, args.join(' ')).toMatch(/^cursor-stream: serving on http:\/\/127\.0\.0\.1:\d+/);
        expect(served.code).toBe(0);
        continue;
      }
      const run = await runCli(args, { cwd: scratch.dir });
      const shown = `${args.join(' ')}: ${run.stderr}`;
      expect([0, 1], shown).toContain(run.code);
      if (run.code === 1) expect(run.stderr, shown).not.toBe('');
      const output = args[args.indexOf('-o') + 1];
      if (args.includes('-o') && output !== '-')
        expect(existsSync(join(scratch.dir, output ?? ''))).toBe(true);
      else expect(run.stdout, shown).not.toBe('');
    }
  });
});
