/**
 * A command that writes a file (`report -o`, `export -o`) must not write over a log it reads: the file is emptied
 * as it is opened, before the log is read, and the log would be lost.
 */

import { stat } from 'node:fs/promises';
import { expandLogPaths } from '@cursor-stream/node/logs';
import { type CliError, cliError } from './cli-error.ts';

/**
 * The usage error for an `output` that is one of the logs `paths` name (a file named, or one a folder holds), the
 * same file by any name; `undefined` when it is none of them (or does not exist yet, or is standard output).
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
    return undefined;
  }
  for (const entry of await expandLogPaths(paths, { sizes: false })) {
    if (entry.path === '-' || 'error' in entry) continue;
    try {
      const input = await stat(entry.path);
      if (input.dev === target.dev && input.ino === target.ino)
        return cliError(
          'invalid-value',
          `-o names a log this command reads (${entry.path}): it would be lost`,
          output,
        );
    } catch {
      // An input that cannot be read is reported where it is read.
    }
  }
  return undefined;
}
