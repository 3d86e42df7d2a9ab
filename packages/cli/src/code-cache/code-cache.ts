/**
 * Runs the bundled command line from V8's code cache. Parsing and compiling the bundle is most of what a command on a
 * small log costs above Node's own start-up; a cache of the compiled code, written by the first run and read by the
 * next ones, skips it. Node 22 has a compile cache of its own, but Node 20 has none for ES modules, so the bundle is a
 * CommonJS script run through `vm.Script`, whose `cachedData` every supported Node takes.
 *
 * The cache is keyed by the bundle's content hash, which the build writes on its first line: V8 checks only the
 * source's length, its own version and its flags, so a cache made for other code of the same length would be taken.
 * A script read from a code cache cannot call `import()` on Node 20 (the callback it needs is not kept in the cache);
 * the bundle is built without one.
 */

import { isAscii } from 'node:buffer';
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { Script } from 'node:vm';
import { makeDirectories } from '@cursor-stream/node/make-directories';

/** The first line the build gives a bundle: the hex digest of everything after it. */
const KEY_LINE = /^\/\/ code-cache-key: ([0-9a-f]{16,128})\n/;

/**
 * The most caches kept in the folder: one per command and bundle (each a few hundred kilobytes), the oldest removed
 * first, so that neither upgrades nor mistyped commands make the folder grow.
 */
const CACHES_KEPT = 24;

/** A variant's name as it goes into a file name: a command's name; anything else is `other`. */
const VARIANT = /^[a-z][a-z0-9-]{0,31}$/;

/** The extension of the cache files, which tells them apart from anything else in a shared folder. */
const CACHE_EXTENSION = '.v8-code-cache';

/** The environment variables that choose the cache's folder. */
export interface CodeCacheEnv {
  /** Node's own switch: any non-empty value turns every compile cache off. */
  NODE_DISABLE_COMPILE_CACHE?: string | undefined;
  /** Node's own compile cache folder: set, the cache is kept there. */
  NODE_COMPILE_CACHE?: string | undefined;
  XDG_CACHE_HOME?: string | undefined;
}

/**
 * The folder the code cache is kept in, or `undefined` when it is turned off. Node's own variables come first, so
 * that one setting governs both caches; then the user's cache folder (`$XDG_CACHE_HOME`, else `~/.cache`), never a
 * folder other users can write to. A relative `$XDG_CACHE_HOME` is ignored, as its specification says; with no home
 * folder there is no cache, rather than one in whatever folder the command runs in.
 */
export function codeCacheDir(env: CodeCacheEnv, home: () => string = homedir): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  if (env.NODE_COMPILE_CACHE) return env.NODE_COMPILE_CACHE;
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, 'cursor-stream');
  let homeDir: string;
  try {
    homeDir = home();
  } catch {
    // No home folder: os.homedir() throws when the user has none in the password database and $HOME is unset.
    return undefined;
  }
  return isAbsolute(homeDir) ? join(homeDir, '.cache', 'cursor-stream') : undefined;
}

/** How a load used the code cache. */
export type CodeCacheUse =
  /** V8 took the cache: nothing was parsed or compiled up front. */
  | 'taken'
  /**
   * There was none yet for this variant, and V8 took another variant's: this variant's is written when
   * {@link LoadedScript.saveCodeCache} runs.
   */
  | 'borrowed'
  /** There was none yet (or it could not be read): it is written when {@link LoadedScript.saveCodeCache} runs. */
  | 'missing'
  /** V8 refused it (another Node, other flags): it is written anew. */
  | 'rejected'
  /** No cache: turned off, no folder, or a bundle without a key. */
  | 'off';

/** Where to keep the cache, and which of a script's caches to use. */
export interface CodeCacheOptions {
  /** See {@link codeCacheDir}; `undefined` runs without a cache. */
  dir: string | undefined;
  /**
   * Which run of the script this is (for the command line, the command's name): each variant has a cache of its
   * own, holding the functions that variant runs, which V8 compiles only when first called.
   */
  variant?: string | undefined;
}

/** A CommonJS script that has run, and how it used the cache. */
export interface LoadedScript {
  /** What the script put in `module.exports`. */
  exports: Record<string, unknown>;
  codeCache: CodeCacheUse;
  /**
   * Writes the cache when it was missing or refused. Called as the process exits, it holds every function the run
   * compiled, not just the top level. Never throws: a cache that cannot be written only costs the next run its
   * speed.
   */
  saveCodeCache: () => void;
}

/** Where a bundle's cache lives. */
interface CacheFile {
  dir: string;
  path: string;
  /** How the names of the same script's caches for other variants, on this V8, begin and end. */
  siblings: { prefix: string; suffix: string };
}

function cacheFileFor(scriptPath: string, source: string, options: CodeCacheOptions): CacheFile | undefined {
  const key = KEY_LINE.exec(source)?.[1];
  const { dir, variant } = options;
  if (dir === undefined || key === undefined) return undefined;
  const variantName = variant !== undefined && VARIANT.test(variant) ? variant : 'other';
  // V8 refuses a cache of another version, so each version keeps its own rather than one overwriting the other's.
  const prefix = `${basename(scriptPath)}-${key.slice(0, 32)}-`;
  const suffix = `-v8-${process.versions.v8}-${process.arch}${CACHE_EXTENSION}`;
  return { dir, path: join(dir, `${prefix}${variantName}${suffix}`), siblings: { prefix, suffix } };
}

/**
 * Another variant's cache of the same script, for a variant's first run: it holds the program's top level, which is
 * most of what a cache saves, so that each command after the first starts fast from its first run.
 */
function readSiblingCache(file: CacheFile): Buffer | undefined {
  const { prefix, suffix } = file.siblings;
  let names: string[];
  try {
    names = readdirSync(file.dir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(suffix)) continue;
    const data = readOwnCache(join(file.dir, name));
    if (data !== undefined) return data;
  }
  return undefined;
}

/** The cache's bytes, when the file is a regular file of this user's; else `undefined`. */
function readOwnCache(path: string): Buffer | undefined {
  let fd: number;
  try {
    // Not through a symbolic link, which someone else could have put in a shared folder.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    // Compiled code is run as it is: a file another user could have written is not trusted.
    // (Windows has no user ids, and its modes say nothing of other users.)
    const uid = process.getuid?.();
    const foreign = uid !== undefined && (stats.uid !== uid || (stats.mode & 0o022) !== 0);
    if (!stats.isFile() || foreign) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function writeCache(file: CacheFile, data: Buffer): void {
  // Created here and now ('wx'): never written through a file or link that was there before. A rename replaces the
  // cache at once: a run starting meanwhile reads the old cache or the new, never half of one.
  const partial = `${file.path}.${process.pid}.partial`;
  try {
    makeDirectories(file.dir, 0o700);
    writeFileSync(partial, data, { mode: 0o600, flag: 'wx' });
    renameSync(partial, file.path);
  } catch {
    // A read-only or full disk: the next run compiles the bundle again.
    try {
      unlinkSync(partial);
    } catch {}
    return;
  }
  try {
    pruneOldCaches(file.dir);
  } catch {
    // Another run pruned the same files first.
  }
}

/** Removes all but the {@link CACHES_KEPT} newest caches. */
function pruneOldCaches(dir: string): void {
  const caches = readdirSync(dir)
    .filter((name) => name.endsWith(CACHE_EXTENSION))
    .map((name) => {
      const path = join(dir, name);
      return { path, mtimeMs: statSync(path).mtimeMs };
    })
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { path } of caches.slice(CACHES_KEPT)) unlinkSync(path);
}

function cacheUse(
  file: CacheFile | undefined,
  ownCache: Buffer | undefined,
  cachedData: Buffer | undefined,
  script: Script,
): CodeCacheUse {
  if (file === undefined) return 'off';
  if (cachedData === undefined) return 'missing';
  if (script.cachedDataRejected === true) return 'rejected';
  return ownCache === undefined ? 'borrowed' : 'taken';
}

/**
 * Runs the CommonJS script at `scriptPath` as `require` would, compiling it from the code cache when one is there for
 * this very script, this variant and this V8.
 *
 * @param scriptPath - An absolute path.
 * @throws What reading the script or running its top level throws.
 */
export function runWithCodeCache(scriptPath: string, options: CodeCacheOptions): LoadedScript {
  const bytes = readFileSync(scriptPath);
  // The build writes the bundle in ASCII: read as such, it is one-byte text, copied rather than decoded.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const file = cacheFileFor(scriptPath, source, options);
  const ownCache = file === undefined ? undefined : readOwnCache(file.path);
  const cachedData = file === undefined ? undefined : (ownCache ?? readSiblingCache(file));
  // The wrapper is on the source's first line, so that line numbers in stack traces stay the bundle's own. Strict, as
  // the ES modules the bundle is built from are.
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {'use strict';${source}\n})`,
    cachedData === undefined ? { filename: scriptPath } : { filename: scriptPath, cachedData },
  );
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(
    module.exports,
    module.exports,
    createRequire(scriptPath),
    module,
    scriptPath,
    dirname(scriptPath),
  );

  const codeCache = cacheUse(file, ownCache, cachedData, script);
  let saved = false;
  return {
    exports: module.exports,
    codeCache,
    saveCodeCache: () => {
      if (saved || file === undefined || codeCache === 'taken') return;
      saved = true;
      try {
        writeCache(file, script.createCachedData());
      } catch {
        // createCachedData fails only when V8 is out of memory; the cache is not worth more than that.
      }
    },
  };
}
