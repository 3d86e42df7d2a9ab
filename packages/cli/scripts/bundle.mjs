/**
 * Bundles the CLI from its TypeScript sources into `bundle/`: one file for the program and one chunk per command,
 * loaded when that command runs. Loading a few bundled files instead of some eighty modules is what brings a
 * command on a small log close to Node's own start-up.
 *
 * Entry points sit side by side in `bundle/`, so that code resolving files relative to itself (`../package.json`,
 * the range and pool workers beside the range engine, the bench child) finds them as it does in `src/`. Each module
 * a worker loads by URL for a command (`src/commands/<name>/range-consumer.ts` and `worker-task.ts`) is an entry of
 * its own, `<name>-<module>.js`, where `src/command-modules.ts` finds it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUNDLE = join(root, 'bundle');

/** The node package's sources, where the range engine's workers are. */
const NODE_PACKAGE = dirname(createRequire(import.meta.url).resolve('@cursor-stream/node/package.json'));

/**
 * The optional peers of the export targets (DuckDB's native binary among them), as the package declares them: loaded
 * from the user's install, and only by the target that needs them.
 */
const OPTIONAL_PEERS = Object.keys(
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).peerDependencies ?? {},
);

/** The modules of a command that a worker thread loads by URL. */
const WORKER_MODULES = ['range-consumer', 'worker-task'];

/** Each command's worker modules, as entry points named `<command>-<module>`. */
function workerModuleEntries() {
  const entries = {};
  const commands = readdirSync(join(root, 'src/commands'), { withFileTypes: true }).filter((entry) =>
    entry.isDirectory(),
  );
  for (const { name } of commands) {
    for (const module of WORKER_MODULES) {
      const file = `src/commands/${name}/${module}.ts`;
      if (existsSync(join(root, file))) entries[`${name}-${module}`] = file;
    }
  }
  return entries;
}

/** The entry points, by the name of the file each becomes. */
const ENTRY_POINTS = {
  cli: 'src/cli.ts',
  'range-worker': join(NODE_PACKAGE, 'src/ranges/range-worker.ts'),
  'pool-worker': join(NODE_PACKAGE, 'src/ranges/pool-worker.ts'),
  'bench-child': 'src/commands/bench/bench-child.ts',
  ...workerModuleEntries(),
};

/** The entry points' files, which a running CLI (or its workers) loads by name; they are swapped in last. */
const ENTRIES = Object.keys(ENTRY_POINTS).map((name) => `${name}.js`);

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

/**
 * commander loads `child_process` as it starts, for executable subcommands, which this CLI has none of: loading it
 * would cost every command's start-up. Within commander it becomes a module that loads it on the first spawn.
 */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    const inCommander = `${sep}commander${sep}`;
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes(inCommander)
        ? { path: 'child_process', namespace: 'lazy-child-process' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      loader: 'js',
    }));
  },
};

/** esbuild's options for the bundle written to `outdir`. */
export function bundleOptions(outdir) {
  return {
    absWorkingDir: root,
    entryPoints: ENTRY_POINTS,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Workspace packages are bundled from their sources, like tests read them.
    conditions: ['@cursor-stream/source'],
    external: OPTIONAL_PEERS,
    // Smaller files parse faster: the bundle's size is most of a command's start-up on a small log.
    minify: true,
    plugins: [lazyChildProcessForCommander],
    // commander and ws are CommonJS; their require() calls need a require in the ES module. Most ask for Node's own
    // modules, which need no resolving: `node:module` (and a require of this file) is loaded only for any other.
    banner: {
      js: "const require = (id) => process.getBuiltinModule(id) ?? process.getBuiltinModule('node:module').createRequire(import.meta.url)(id);",
    },
    logLevel: 'warning',
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  await bundleCli({ clean: process.argv.includes('--clean') });
