/** Loads an optional peer dependency only when the format that needs it runs. */

import { ExportFailure } from './log-exporter.ts';

/**
 * Imports `load()`; when the package is not installed, fails with `missing-package` and a one-line message naming
 * what to install.
 */
export async function importOptional<T>(
  packages: string,
  format: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new ExportFailure({
        code: 'missing-package',
        message: `--format ${format} needs ${packages}: install it with npm install ${packages}`,
      });
    }
    throw error;
  }
}
