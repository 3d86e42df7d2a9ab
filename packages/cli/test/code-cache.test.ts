import {
  chmodSync,
  chownSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { RECORDING, runCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, describe, expect, test } from 'vitest';
import { codeCacheDir, runWithCodeCache } from '../src/code-cache/index.ts';

const scratch = mkdtempSync(join(tmpdir(), 'cursor-stream-code-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
/** A new folder in the scratch space. */
function folder(): string {
  folders += 1;
  return join(scratch, `folder-${folders}`);
}

/** A CommonJS script with a key line, as the build writes the bundle. */
function keyedScript(body: string, key = 'a'.repeat(64)): string {
  const path = join(mkdtempSync(join(scratch, 'script-')), 'script.cjs');
  writeFileSync(path, `// code-cache-key: ${key}\n${body}`);
  return path;
}

/** The cache files in `dir`. */
function caches(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.v8-code-cache'));
  } catch {
    return [];
  }
}

describe('codeCacheDir', () => {
  const home = () => '/home/someone';

  test("is off when Node's own switch turns compile caches off", () => {
    expect(
      codeCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1', NODE_COMPILE_CACHE: '/tmp/x' }, home),
    ).toBeUndefined();
  });

  test("is Node's own compile cache folder when one is set", () => {
    expect(codeCacheDir({ NODE_COMPILE_CACHE: '/var/cache/node', XDG_CACHE_HOME: '/x' }, home)).toBe(
      '/var/cache/node',
    );
  });

  test("is in the user's cache folder otherwise", () => {
    expect(codeCacheDir({ XDG_CACHE_HOME: '/data/cache' }, home)).toBe(join('/data/cache', 'cursor-stream'));
    expect(codeCacheDir({}, home)).toBe(join('/home/someone', '.cache', 'cursor-stream'));
    // An empty variable counts as unset, as Node and the XDG specification read them; a relative one is ignored.
    expect(
      codeCacheDir({ NODE_DISABLE_COMPILE_CACHE: '', NODE_COMPILE_CACHE: '', XDG_CACHE_HOME: '' }, home),
    ).toBe(join('/home/someone', '.cache', 'cursor-stream'));
    expect(codeCacheDir({ XDG_CACHE_HOME: 'cache' }, home)).toBe(
      join('/home/someone', '.cache', 'cursor-stream'),
    );
  });

  test('is off with no home folder, rather than in the working folder', () => {
    const noHome = () => {
      throw Object.assign(new Error('no home'), { code: 'ENOENT' });
    };
    expect(codeCacheDir({}, noHome)).toBeUndefined();
    expect(codeCacheDir({}, () => '')).toBeUndefined();
    expect(codeCacheDir({ XDG_CACHE_HOME: '/data/cache' }, noHome)).toBe(
      join('/data/cache', 'cursor-stream'),
    );
  });
});

describe('runWithCodeCache', () => {
  test('runs the script as CommonJS, with its own require, file name and folder', () => {
    const script = keyedScript(
      "exports.sum = 1 + 2; exports.file = __filename; exports.dir = __dirname; exports.sep = require('node:path').sep; exports.strict = (function () { return this; })() === undefined;",
    );
    const loaded = runWithCodeCache(script, { dir: undefined });
    expect(loaded.codeCache).toBe('off');
    expect(loaded.exports).toEqual({
      sum: 3,
      file: script,
      dir: join(script, '..'),
      sep,
      strict: true,
    });
  });

  test('writes a cache of its own when none is there, in a folder only its user can read', () => {
    const dir = folder();
    const loaded = runWithCodeCache(keyedScript('exports.value = 42;'), { dir, variant: 'summary' });
    expect(loaded.codeCache).toBe('missing');
    expect(caches(dir)).toEqual([]);
    loaded.saveCodeCache();
    const [name] = caches(dir);
    expect(name).toMatch(/^script\.cjs-a{32}-summary-v8-.+\.v8-code-cache$/);
    if (process.platform !== 'win32') {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, name ?? '')).mode & 0o777).toBe(0o600);
    }
  });

  test('names a variant that is not a plain word `other`', () => {
    const dir = folder();
    runWithCodeCache(keyedScript('exports.value = 1;'), { dir, variant: '../../etc/passwd' }).saveCodeCache();
    runWithCodeCache(keyedScript('exports.value = 2;'), { dir, variant: '--version' }).saveCodeCache();
    expect(caches(dir)).toHaveLength(1);
    expect(caches(dir)[0]).toContain('-other-');
  });

  test("a variant's first run borrows another variant's cache of the same script, then writes its own", () => {
    const dir = folder();
    const key = 'b'.repeat(64);
    runWithCodeCache(keyedScript('exports.value = 42;', key), { dir, variant: 'summary' }).saveCodeCache();
    // Another script under another key has no cache to borrow.
    expect(runWithCodeCache(keyedScript('exports.value = 42;'), { dir, variant: 'render' }).codeCache).toBe(
      'missing',
    );
    const loaded = runWithCodeCache(keyedScript('exports.value = 42;', key), { dir, variant: 'render' });
    expect(loaded.codeCache).toBe('borrowed');
    loaded.saveCodeCache();
    expect(caches(dir).filter((name) => name.startsWith(`script.cjs-${'b'.repeat(32)}-`))).toHaveLength(2);
  });

  test('keeps no cache for a script without a key: its code could change without its length changing', () => {
    const dir = folder();
    const path = join(mkdtempSync(join(scratch, 'script-')), 'script.cjs');
    writeFileSync(path, 'exports.value = 42;');
    const loaded = runWithCodeCache(path, { dir });
    expect(loaded.codeCache).toBe('off');
    loaded.saveCodeCache();
    expect(caches(dir)).toEqual([]);
  });

  test('a cache V8 refuses is written anew', () => {
    const dir = folder();
    runWithCodeCache(keyedScript('exports.value = 42;'), { dir }).saveCodeCache();
    const [name = ''] = caches(dir);
    writeFileSync(join(dir, name), 'not a code cache at all', { mode: 0o600 });
    // Another source under the same key: V8 would otherwise take the script it compiled above, in this process.
    const loaded = runWithCodeCache(keyedScript('exports.value = 42; '), { dir });
    expect(loaded.codeCache).toBe('rejected');
    expect(loaded.exports.value).toBe(42);
    loaded.saveCodeCache();
    expect(readFileSync(join(dir, name)).toString()).not.toBe('not a code cache at all');
  });

  test('a cache others could have written is not read', () => {
    if (process.platform === 'win32') return;
    const dir = folder();
    const script = keyedScript('exports.value = 42;');
    runWithCodeCache(script, { dir }).saveCodeCache();
    const path = join(dir, caches(dir)[0] ?? '');
    chmodSync(path, 0o666);
    expect(runWithCodeCache(script, { dir }).codeCache).toBe('missing');
    chmodSync(path, 0o600);
    if (process.getuid?.() === 0) {
      chownSync(path, 65534, 65534);
      expect(runWithCodeCache(script, { dir }).codeCache).toBe('missing');
    }
  });

  test('reads no cache through a symbolic link, and writes none through one', () => {
    if (process.platform === 'win32') return;
    const dir = folder();
    const script = keyedScript('exports.value = 42;');
    runWithCodeCache(script, { dir }).saveCodeCache();
    const name = caches(dir)[0] ?? '';
    const real = join(dir, 'elsewhere');
    renameSync(join(dir, name), real);
    symlinkSync(real, join(dir, name));
    expect(runWithCodeCache(script, { dir }).codeCache).toBe('missing');

    const victim = join(scratch, 'victim');
    writeFileSync(victim, 'precious');
    rmSync(join(dir, name));
    symlinkSync(victim, join(dir, `${name}.${process.pid}.partial`));
    runWithCodeCache(keyedScript('exports.value = 42;  '), { dir }).saveCodeCache();
    expect(readFileSync(victim, 'utf8')).toBe('precious');
  });

  test('a folder that cannot be written costs only the cache', () => {
    const blocked = join(scratch, 'a-file');
    writeFileSync(blocked, '');
    const loaded = runWithCodeCache(keyedScript('exports.value = 42;'), { dir: join(blocked, 'cache') });
    expect(() => loaded.saveCodeCache()).not.toThrow();
    expect(loaded.exports.value).toBe(42);
  });

  test('keeps the newest 24 caches', () => {
    const dir = folder();
    for (let index = 0; index < 26; index++)
      runWithCodeCache(keyedScript(`exports.value = ${index};`, index.toString(16).padEnd(64, '0')), {
        dir,
      }).saveCodeCache();
    expect(caches(dir)).toHaveLength(24);
  });
});

describe('the command line with a code cache', () => {
  test('a later run takes the cache the first wrote, and prints what a run without one prints', async () => {
    const dir = folder();
    const env = { NODE_COMPILE_CACHE: dir };
    const uncached = await runCli(['summary', RECORDING], { env: { NODE_DISABLE_COMPILE_CACHE: '1' } });
    const first = await runCli(['summary', RECORDING], { env });
    const [name = ''] = caches(dir);
    expect(name).toContain('-summary-');
    const written = statSync(join(dir, name));
    const second = await runCli(['summary', RECORDING], { env });
    // Not written again: V8 took it.
    expect(statSync(join(dir, name)).ino).toBe(written.ino);
    expect(first).toEqual(uncached);
    expect(second).toEqual(uncached);
    expect(uncached.code).toBe(0);

    writeFileSync(join(dir, name), 'not a code cache at all', { mode: 0o600 });
    expect(await runCli(['summary', RECORDING], { env })).toEqual(uncached);
    expect(statSync(join(dir, name)).size).toBeGreaterThan(1000);
  });

  test('each command keeps its own cache', async () => {
    const dir = folder();
    const env = { NODE_COMPILE_CACHE: dir };
    for (const args of [['render', RECORDING], ['validate', RECORDING], ['--version']])
      expect((await runCli(args, { env })).code).toBe(0);
    expect(caches(dir).map((name) => name.split('-')[2])).toEqual(
      expect.arrayContaining(['render', 'validate', 'other']),
    );
  });

  test('writes no cache when compile caches are off', async () => {
    const dir = folder();
    const run = await runCli(['--version'], {
      env: { NODE_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: '1' },
    });
    expect(run.code).toBe(0);
    expect(caches(dir)).toEqual([]);
  });
});
