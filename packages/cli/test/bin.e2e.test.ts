import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  GROW_AFTER_BYTES,
  LONG_LINE_BYTES,
  YOUNG_GENERATION_CAP_BYTES,
} from '@cursor-stream/node/young-generation';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const BIN = join(REPO_ROOT, 'packages/cli/bin/cursor-stream.js');

/** BusyBox, whose `env` is the one of Alpine images; the shebang test skips without it. */
const BUSYBOX = ['/usr/bin/busybox', '/bin/busybox'].find((path) => spawnSync(path, ['true']).status === 0);

/** This Node first on the PATH, so that `env node` finds the one running the tests. */
const ENV = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };

describe.skipIf(BUSYBOX === undefined)('the bin under BusyBox env', () => {
  test('starts through its shebang line as Linux passes it to the interpreter', async () => {
    const shebang = (await readFile(BIN, 'utf8')).split('\n', 1)[0] ?? '';
    const match = /^#!\s*(\S+)(?:\s+(.*))?$/.exec(shebang);
    expect(match?.[1]).toBe('/usr/bin/env');
    // Linux hands everything after the interpreter to it as one argument, then the script's path.
    const interpreterArgument = match?.[2]?.trim();
    const args = interpreterArgument === undefined ? [] : [interpreterArgument];
    const run = spawnSync(BUSYBOX ?? '', ['env', ...args, BIN, '--version'], { env: ENV, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

if (BUSYBOX === undefined)
  test.skip('the bin under BusyBox env (needs busybox: apt-get install busybox)', () => {});

describe.skipIf(process.platform !== 'linux')('a code cache folder where no folder can be made', () => {
  // procfs answers ENOENT to mkdir under a folder that is there, where Node's recursive mkdir retries forever.
  test.each([
    ['XDG_CACHE_HOME', '/proc'],
    ['NODE_COMPILE_CACHE', '/proc/cursor-stream-cache'],
  ])('%s=%s only costs the speed: the command ends', (name, value) => {
    const run = spawnSync(process.execPath, [BIN, '--version'], {
      env: { ...process.env, [name]: value },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

/** The size of the young generation as the process exits, printed on stderr by a module loaded first. */
const PRINT_NEW_SPACE = `data:text/javascript,${encodeURIComponent(
  [
    'import v8 from "node:v8";',
    'process.on("exit", () => {',
    '  const space = v8.getHeapSpaceStatistics().find((entry) => entry.space_name === "new_space");',
    '  process.stderr.write("new space: " + space?.space_size + "\\n");',
    '});',
  ].join('\n'),
)}`;

describe('the young generation', () => {
  let scratch = '';
  let log = '';
  let longFirst = '';
  // Node 20's first young generation, and its size held at that: 1 MB semi-spaces, counted twice.
  const STARTING_BYTES = 2 * 1024 * 1024;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-bin-'));
    // Enough sessions that V8's defaults grow the young generation past its starting size.
    const session = await readFile(
      join(REPO_ROOT, 'corpus/official/parallel-tools-out-of-order.ndjson'),
      'utf8',
    );
    log = join(scratch, 'many-sessions.ndjson');
    await writeFile(log, session.repeat(500));
    // The same, after a line long enough to be parsed into objects that would grow it (an assistant message).
    const long = JSON.stringify({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'x'.repeat(LONG_LINE_BYTES) }] },
      session_id: 'long',
    });
    longFirst = join(scratch, 'long-line-first.ndjson');
    await writeFile(longFirst, `${long}\n${session.repeat(500)}`);
  });

  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  function newSpaceBytes(nodeFlags: readonly string[], file = log): number {
    const run = spawnSync(
      process.execPath,
      [...nodeFlags, '--import', PRINT_NEW_SPACE, BIN, 'normalize', file],
      { encoding: 'utf8', maxBuffer: 1 << 30 },
    );
    expect(run.status, run.stderr).toBe(0);
    const bytes = /new space: (\d+)/.exec(run.stderr)?.[1];
    expect(bytes).toBeDefined();
    return Number(bytes);
  }

  test('grows on short lines up to its cap', () => {
    const grown = newSpaceBytes([]);
    // A collection may pass the cap by one step before the bin hears of it.
    expect(grown).toBeGreaterThan(STARTING_BYTES);
    expect(grown).toBeLessThanOrEqual(2 * YOUNG_GENERATION_CAP_BYTES);
  });

  test('is watched only once a log is longer than the bytes a small command reads', async () => {
    // The watch of collections is what loads node:perf_hooks: a tenth of the start-up of a command on a small log.
    const PRINT_PERF_HOOKS = `data:text/javascript,${encodeURIComponent(
      'process.on("exit", () => process.stderr.write("perf_hooks: " + process.moduleLoadList.includes("NativeModule perf_hooks") + "\\n"));',
    )}`;
    const session = await readFile(join(REPO_ROOT, 'corpus/official/docs-example-zh.ndjson'), 'utf8');
    const loadsPerfHooks = async (bytes: number): Promise<string | undefined> => {
      const file = join(scratch, `at-least-${bytes}.ndjson`);
      await writeFile(file, session.repeat(Math.ceil(bytes / Buffer.byteLength(session))));
      const run = spawnSync(process.execPath, ['--import', PRINT_PERF_HOOKS, BIN, 'summary', file], {
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      return /perf_hooks: (\w+)/.exec(run.stderr)?.[1];
    };
    expect(await loadsPerfHooks(1)).toBe('false');
    expect(await loadsPerfHooks(GROW_AFTER_BYTES)).toBe('true');
  });

  test('stays at its starting size once a long line comes, unless a size is given to node', () => {
    expect(newSpaceBytes([], longFirst)).toBeLessThanOrEqual(STARTING_BYTES);
    // A size given is the user's choice: V8 grows it as it likes.
    expect(newSpaceBytes(['--max-semi-space-size=16'], longFirst)).toBeGreaterThan(STARTING_BYTES);
  });
});
