/** Loads an optional peer dependency only when the format that needs it runs. */

import { ExportFailure } from './log-exporter.ts';
import { isModuleNotFound } from './optional-peer.ts';

/**
 * Imports `load()` (see `importPeer` for where it looks); when the package is not installed, fails with
 * `missing-package` and a one-line message naming the command that installs it, and when it is installed but fails
 * to load (a native binding built for another platform, a half-finished install), with `broken-package` and the
 * package's own first line: its error is not about the log or the output the command was given.
 */
export async function importOptional<T>(
  packages: string,
  format: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isModuleNotFound(error)) {
      throw new ExportFailure({
        code: 'missing-package',
        message:
          `--format ${format} needs ${packages}, found neither from the working directory up nor beside ` +
          `cursor-stream: run npm install ${packages}`,
      });
    }
    const detail = error instanceof Error ? error.message : String(error);
    throw new ExportFailure({
      code: 'broken-package',
      message:
        `--format ${format} needs ${packages}, which is installed but fails to load ` +
        `(${detail.split('\n')[0]?.trim() || 'no message'}): reinstall it with npm install ${packages}`,
    });
  }
}
