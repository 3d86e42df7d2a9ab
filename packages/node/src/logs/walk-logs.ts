/** Turning paths into log files: directories are walked for logs, files are taken as given. */

import { type Dirent, realpathSync, type Stats, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { ioError, type LogError, logError } from './log-error.ts';

/** Names a directory walk picks up: NDJSON logs, plain or gzipped. */
const LOG_NAME = /\.(?:ndjson|jsonl|log)(?:\.gz)?$/i;

/**
 * One log file to read, or why a path gave none. `regularFile` says the path was a regular file when listed (a log a
 * walk found always is), which lets its reader open it without a stat first. `size` is unknown for a log a walk found
 * unless sizes were asked for (see {@link ExpandLogPathsOptions}).
 */
export type LogEntry =
  | { path: string; size: number | undefined; regularFile: boolean }
  | { path: string; error: LogError };

/** Whether a directory walk picks up this file name. */
export function isLogFileName(name: string): boolean {
  return LOG_NAME.test(name);
}

/** Sorted by code unit, not locale, so that the order is the same on every machine. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How {@link expandLogPaths} lists logs. */
export interface ExpandLogPathsOptions {
  /**
   * Whether each log a walk finds gets its size (a stat per file). The reader learns a log's size as it opens it
   * anyway; a total before reading (a progress bar's) is what needs it, and over a folder of small logs a stat per
   * file is a cost of its own.
   *
   * @defaultValue `true`
   */
  readonly sizes?: boolean;
}

/**
 * The log files under a directory, depth first in name order. Symbolic links to files are followed; links to
 * directories are not, so a link cycle cannot loop; a link named like a log that leads to nothing is listed, so that
 * its reader says so; a pipe, socket or device named like a log, or a link to one, is listed with its error, never
 * opened. Each link to a file is added to `links`.
 */
async function walk(directory: string, sizes: boolean, links: string[]): Promise<LogEntry[]> {
  let dirents: Dirent[];
  try {
    dirents = (await readdir(directory, { withFileTypes: true })).sort((a, b) => byName(a.name, b.name));
  } catch (error) {
    return [{ path: directory, error: ioError(directory, error) }];
  }
  const entries: LogEntry[] = [];
  const misnamed = dirents.some((dirent) => dirent.name.includes(REPLACEMENT_CHARACTER))
    ? await namesNotUtf8(directory)
    : NO_NAMES;
  for (const dirent of dirents) {
    const path = join(directory, dirent.name);
    if (misnamed.has(dirent.name) && isLogFileName(dirent.name)) {
      entries.push({ path, error: logError('read-failed', NOT_UTF8_NAME, path) });
      continue;
    }
    if (dirent.isDirectory()) {
      entries.push(...(await walk(path, sizes, links)));
      continue;
    }
    if (!isLogFileName(dirent.name)) continue;
    if (!(dirent.isFile() || dirent.isSymbolicLink())) {
      entries.push({ path, error: notRegular(path, dirent) });
      continue;
    }
    if (!sizes && dirent.isFile()) {
      entries.push({ path, size: undefined, regularFile: true });
      continue;
    }
    // Synchronous: a stat is microseconds, where a thread-pool round trip per file is most of a small log's cost.
    const info = statOf(path);
    if (info?.isFile() === true) {
      entries.push({ path, size: info.size, regularFile: true });
      if (dirent.isSymbolicLink()) links.push(path);
    }
    // A link named like a log that leads nowhere (or to no file) is said, as a log named on the command line would
    // be, not passed over; its reader reports why it cannot be read.
    else if (info === undefined) entries.push({ path, size: undefined, regularFile: false });
    // A link to a folder is not followed, so that a cycle cannot loop; a link to a pipe or device is said as one is.
    else if (!info.isDirectory()) entries.push({ path, error: notRegular(path, info) });
  }
  return entries;
}

/**
 * Why a walk does not read a file named like a log that is not a regular file: a pipe with no writer would hold the
 * whole command up, and a device may never end. Named on its own, it is read as standard input is.
 */
function notRegular(path: string, kind: Pick<Stats, 'isFIFO' | 'isSocket' | 'isCharacterDevice'>): LogError {
  const what = kind.isFIFO()
    ? 'a pipe'
    : kind.isSocket()
      ? 'a socket'
      : kind.isCharacterDevice()
        ? 'a character device'
        : 'a device';
  return logError(
    'read-failed',
    `${what}, not a regular file: a folder is walked for regular files only, so that nothing can hold it up; name it on its own to read it`,
    path,
  );
}

/** What a name that is not UTF-8 becomes when read as a string: its bytes are lost, and the file cannot be opened. */
const REPLACEMENT_CHARACTER = '\uFFFD';
const NO_NAMES: ReadonlySet<string> = new Set();
const NOT_UTF8_NAME =
  'the file name is not valid UTF-8, so it cannot be opened by the name shown: rename it to read it';

/**
 * The names in `directory` that are not valid UTF-8, as a string read of the folder gives them (with U+FFFD for their
 * bytes): such a name names another file, or none, and opening it would say "no such file" of a file that is there.
 */
async function namesNotUtf8(directory: string): Promise<ReadonlySet<string>> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const names = new Set<string>();
  try {
    for (const raw of await readdir(directory, { encoding: 'buffer' })) {
      try {
        decoder.decode(raw);
      } catch {
        names.add(raw.toString('utf8'));
      }
    }
  } catch {
    // The folder went away between the two reads: its names are said as the first read gave them.
  }
  return names;
}

/**
 * Expands paths in order: a directory becomes the logs under it (a pipe, socket or device in it named like a log
 * becomes an entry with its error), anything else (including `-` and paths that do not exist, which fail when read)
 * stays as it is.
 */
export async function expandLogPaths(
  paths: readonly string[],
  options: ExpandLogPathsOptions = {},
): Promise<LogEntry[]> {
  const sizes = options.sizes ?? true;
  const entries: LogEntry[] = [];
  for (const path of paths) {
    const info = path === '-' ? undefined : statOf(path);
    if (info?.isDirectory() !== true) {
      entries.push({ path, size: info?.size, regularFile: info?.isFile() === true });
      continue;
    }
    const links: string[] = [];
    const found = await walk(path, sizes, links);
    const logs = links.length === 0 ? found : readOnce(path, found, new Set(links));
    entries.push(...(logs.length > 0 ? logs : [{ path, error: noLogs(path) }]));
  }
  return entries;
}

/**
 * The logs a walk of `directory` found, each file once: a link to a file the walk lists already (`latest.ndjson` beside
 * the run it points to), or that another link leads to, would have every command count its runs twice. The first
 * name in walk order is kept. A link that cannot be resolved is kept, for its reader to say why.
 */
function readOnce(directory: string, found: readonly LogEntry[], links: ReadonlySet<string>): LogEntry[] {
  const root = realPathOf(directory);
  if (root === undefined) return [...found];
  // Links to directories are not followed, so a file the walk reached by name is where its name says, under the root.
  const seen = new Set<string>();
  for (const entry of found)
    if (!links.has(entry.path)) seen.add(join(root, relative(directory, entry.path)));
  return found.filter((entry) => {
    if (!links.has(entry.path)) return true;
    const target = realPathOf(entry.path);
    if (target === undefined) return true;
    if (seen.has(target)) return false;
    seen.add(target);
    return true;
  });
}

/** The file `path` names, links resolved: one system call, where `realpathSync` looks at each part of the path. */
function realPathOf(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function noLogs(path: string): LogError {
  return logError('no-logs-found', 'no .ndjson, .jsonl or .log files (or their .gz) in this directory', path);
}

/**
 * The file names of `@cursor/sdk`'s `JsonlLocalAgentStore` (one folder holds every run, as rows and as events), and of
 * their gzipped copies.
 */
const SDK_STORE_RUNS = /^runs\.ndjson(?:\.gz)?$/;
const SDK_STORE_RUN_EVENTS = /^run_events\.ndjson(?:\.gz)?$/;

/**
 * The `@cursor/sdk` store's run rows read beside the events of the same runs: among `entries`, each `runs.ndjson`
 * whose folder's `run_events.ndjson` is read too. A row is the whole of a run that `run_events.ndjson` streams, usage
 * and all, so a command that adds runs up counts one of the two; it counts the events, which say what the run did.
 */
export function sdkStoreRunRows(entries: readonly LogEntry[]): Set<string> {
  const eventFolders = new Set<string>();
  for (const entry of entries)
    if (SDK_STORE_RUN_EVENTS.test(basename(entry.path))) eventFolders.add(dirname(entry.path));
  const rows = new Set<string>();
  if (eventFolders.size === 0) return rows;
  for (const entry of entries)
    if (SDK_STORE_RUNS.test(basename(entry.path)) && eventFolders.has(dirname(entry.path)))
      rows.add(entry.path);
  return rows;
}

const SDK_RUN_ROWS_NOTE =
  'left out: the @cursor/sdk store rows of the runs in the run_events.ndjson beside it, counted from there';

/**
 * `entries` without the `@cursor/sdk` store's run rows read beside the same runs' events (see {@link sdkStoreRunRows}),
 * and a `counted-elsewhere` note for each left out: for the commands that add runs up.
 */
export function withoutSdkStoreRunRows(entries: readonly LogEntry[]): {
  entries: readonly LogEntry[];
  leftOut: LogError[];
} {
  const rows = sdkStoreRunRows(entries);
  if (rows.size === 0) return { entries, leftOut: [] };
  return {
    entries: entries.filter((entry) => !rows.has(entry.path)),
    leftOut: [...rows].map((path) => logError('counted-elsewhere', SDK_RUN_ROWS_NOTE, path)),
  };
}

/**
 * `entries` with each file once, and a `counted-elsewhere` note for each left out: paths that name the same file
 * (`logs/ logs/today.ndjson`, a file given twice, a link beside its target) would have a command that adds runs up
 * count them twice. The first name is kept. A walk already reads each file of one directory once, so only logs of
 * `paths` given together are compared: one argument costs nothing.
 */
export function withoutRepeatedLogs(
  paths: readonly string[],
  entries: readonly LogEntry[],
): { entries: readonly LogEntry[]; leftOut: LogError[] } {
  if (paths.length < 2) return { entries, leftOut: [] };
  const firstNames = new Map<string, string>();
  const leftOut: LogError[] = [];
  const kept = entries.filter((entry) => {
    if ('error' in entry || entry.path === '-') return true;
    const file = realPathOf(entry.path);
    if (file === undefined) return true;
    const first = firstNames.get(file);
    if (first === undefined) {
      firstNames.set(file, entry.path);
      return true;
    }
    const why = first === entry.path ? 'named twice' : `the same file as ${first}`;
    leftOut.push(logError('counted-elsewhere', `${why}: read once`, entry.path));
    return false;
  });
  return { entries: kept, leftOut };
}

/**
 * The logs a command that adds runs up reads: each file once ({@link withoutRepeatedLogs}), without the
 * `@cursor/sdk` store's run rows beside their events ({@link withoutSdkStoreRunRows}), with a note for each left out.
 */
export function logsToCount(
  paths: readonly string[],
  entries: readonly LogEntry[],
): { entries: readonly LogEntry[]; leftOut: LogError[] } {
  const once = withoutRepeatedLogs(paths, entries);
  const counted = withoutSdkStoreRunRows(once.entries);
  return { entries: counted.entries, leftOut: [...once.leftOut, ...counted.leftOut] };
}
