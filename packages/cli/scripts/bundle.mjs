/**
 * Bundles the CLI from its TypeScript sources into `bundle/`: one file for the program and one chunk per command,
 * loaded when that command runs. Loading a few bundled files instead of some eighty modules is what brings a
 * command on a small log close to Node's own start-up.
 *
 * Entry points sit side by side in `bundle/`, so that code resolving files relative to itself (`../package.json`,
 * the validate worker, the bench child) finds them as it does in `src/`.
 */
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Writes the bundle; resolves when done. */
export async function bundleCli() {
  // Chunk names carry content hashes: without a clean start, every rebuild would leave the old chunks behind.
  await rm(new URL('../bundle', import.meta.url), { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: {
      cli: 'src/cli.ts',
      'validate-worker': 'src/validate/validate-worker.ts',
      'bench-child': 'src/bench/bench-child.ts',
    },
    outdir: 'bundle',
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
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli();
