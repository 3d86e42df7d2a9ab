/**
 * A command that writes a file (`report -o`, `export -o`) must not write over a log it reads: the file is emptied
 * as it is opened, before the log is read, and the log would be lost.
 */

import { fstatSync, realpathSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { expandLogPaths, isLogFileName } from '@cursor-stream/node/logs';
import { type CliError, cliError } from './cli-error.ts';

/**
 * The usage error for an `output` that is one of the logs `paths` name (a file named, one a folder holds, or standard
 * input), the same file by any name, or that does not exist yet but would be one of a folder's logs once written;
 * `undefined` when it is none of them (or is standard output).
 */
export async function outputOverInput(
  output: string,
  paths: readonly string[],
): Promise<CliError | undefined> {
  if (output === '-') return undefined;
  let target: { dev: number; ino: number };
  try {
    target = await stat(output);
  } catch {
    return newOutputInFolderRead(output, paths);
  }
  for (const entry of await expandLogPaths(paths, { sizes: false })) {
    if ('error' in entry) continue;
    try {
      // `-o /dev/stdin` with the log on standard input would empty the log as it is opened.
      const input = entry.path === '-' ? fstatSync(0) : await stat(entry.path);
      if (input.dev === target.dev && input.ino === target.ino)
        return cliError(
          'invalid-value',
          `-o names a log this command reads (${entry.path === '-' ? 'standard input' : entry.path}): it would be lost`,
          output,
        );
    } catch {
      // An input that cannot be read is reported where it is read.
    }
  }
  return undefined;
}

/**
 * The usage error for an output not written yet that a walk of a folder among `paths` would list as a log: it is
 * created before the folder is walked, so the command would read its own output as one of the logs.
 */
function newOutputInFolderRead(output: string, paths: readonly string[]): CliError | undefined {
  if (!isLogFileName(basename(output))) return undefined;
  const where = folderOf(dirname(resolve(output)));
  if (where === undefined) return undefined;
  for (const path of paths) {
    const folder = path === '-' ? undefined : folderOf(path);
    if (folder === undefined) continue;
    const inside = relative(folder, where);
    const outside = inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);
    if (!outside)
      return cliError(
        'invalid-value',
        `-o is a log name in a folder this command reads (${path}): it would read its own output; write it elsewhere or name it otherwise`,
        output,
      );
  }
  return undefined;
}

/** The folder `path` names, links resolved; `undefined` when it names no folder (or nothing). */
function folderOf(path: string): string | undefined {
  try {
    const real = realpathSync.native(path);
    return statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}
