/**
 * Finds an optional peer dependency where its user installed it. `import` looks beside this package only, which for
 * a command installed globally or run through `npx` is a folder the user never installs into; so a peer missing
 * there is looked for from the working directory up, where `npm install` in the user's project puts it.
 */

import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Whether `error` says that a module or package was not found (by `import` or by `require`). */
export function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/**
 * Puts a regular file's type where Node 20's `realpathSync` looks for it. `require` resolves a package's links through
 * `realpathSync`, which reads the type of the last `stat` made in the process (one array all of them share) as the type
 * of a folder it already knows: after an `fstat` of a pipe (standard input, `<(…)`) it stops following links part-way,
 * and a package installed by pnpm (a link into `.pnpm`, beside its own dependencies) then cannot find them.
 */
function forgetLastStat(): void {
  try {
    statSync(process.execPath);
  } catch {
    // Only a stat that succeeds writes the array; nothing else depends on it.
  }
}

/**
 * Imports `specifier` through `importBeside` (an `import()` of it, resolved beside this package); when that finds
 * nothing, requires it from `projectDir` (default: the working directory) or a folder above it. The peers are
 * CommonJS packages without an `exports` map, so `require` loads the very module `import` would. It is `require`
 * rather than an `import()` of the file's URL because the command-line bundle runs as a script compiled from V8's
 * code cache, where `import()` cannot be called.
 *
 * @throws The error of `importBeside` when the package is in neither place.
 */
export async function importPeer<T>(
  specifier: string,
  importBeside: () => Promise<T>,
  projectDir: string = process.cwd(),
): Promise<T> {
  forgetLastStat();
  try {
    return await importBeside();
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    // The file name is never read: createRequire resolves from the folder it is in.
    const fromProject = createRequire(join(projectDir, 'noop.js'));
    let path: string;
    forgetLastStat();
    try {
      path = fromProject.resolve(specifier);
    } catch {
      throw error;
    }
    return fromProject(path) as T;
  }
}
