/**
 * Bundles the CLI from its TypeScript sources into `bundle/`: one file for the program and one chunk per command,
 * loaded when that command runs. Loading a few bundled files instead of some eighty modules is what brings a
 * command on a small log close to Node's own start-up.
 *
 * Entry points sit side by side in `bundle/`, so that code resolving files relative to itself (`../package.json`,
 * the validate and range workers, the bench child) finds them as it does in `src/`.
 */
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUNDLE = join(root, 'bundle');

/** The entry points, which a running CLI loads first; they are swapped in last. */
const ENTRIES = ['cli.js', 'validate-worker.js', 'range-worker.js', 'bench-child.js'];

/**
 * A chunk the new build no longer has is kept this long: a CLI started before the rebuild loads its command's chunk
 * only when the command runs, so deleting it at once could break that run.
 */
const STALE_CHUNK_MS = 60 * 60 * 1000;

/**
 * Writes the bundle; resolves when done. It is built in a folder of its own and moved into `bundle/` file by file
 * (each move replaces one file at once, chunks before entry points), so a CLI running meanwhile, such as one started
 * by hand while the tests rebuild, always finds a complete bundle. `clean` (for packing) removes every file of an
 * older build at once, so that none is shipped; a rebuild of unchanged sources has the same chunk names, so a CLI
 * running meanwhile still finds its files.
 */
export async function bundleCli({ clean = false, dir = BUNDLE } = {}) {
  const next = join(dir, '..', `bundle.next-${process.pid}-${Date.now()}`);
  try {
    await buildInto(next);
    await swapIn(next, dir, clean ? 0 : STALE_CHUNK_MS);
  } finally {
    await rm(next, { recursive: true, force: true });
  }
}

/** Moves the new build into `dir`, then removes files of older builds untouched for `keepMs`. */
async function swapIn(next, dir, keepMs) {
  await mkdir(dir, { recursive: true });
  const built = await readdir(next);
  const chunks = built.filter((name) => !ENTRIES.includes(name));
  for (const name of [...chunks, ...ENTRIES.filter((name) => built.includes(name))]) {
    await rename(join(next, name), join(dir, name));
  }
  const now = Date.now();
  for (const name of await readdir(dir)) {
    if (built.includes(name)) continue;
    const { mtimeMs } = await stat(join(dir, name));
    if (now - mtimeMs >= keepMs) await rm(join(dir, name), { recursive: true, force: true });
  }
}

async function buildInto(outdir) {
  await build(bundleOptions(outdir));
}

/** esbuild's options for the bundle written to `outdir`. */
export function bundleOptions(outdir) {
  return {
    absWorkingDir: root,
    entryPoints: {
      cli: 'src/cli.ts',
      'validate-worker': 'src/validate/validate-worker.ts',
      'range-worker': 'src/parallel/range-worker.ts',
      'bench-child': 'src/bench/bench-child.ts',
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Workspace packages are bundled from their sources, like tests read them.
    conditions: ['@cursor-stream/source'],
    // Optional peers of the export formats (DuckDB's native binary among them): loaded from the user's install,
    // and only by the format that needs them.
    external: ['@duckdb/node-api', '@opentelemetry/*'],
    // commander is CommonJS; its require() calls need a require in the ES module.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  await bundleCli({ clean: process.argv.includes('--clean') });
