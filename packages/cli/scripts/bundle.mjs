/**
 * Bundles the CLI from its TypeScript sources into `bundle/`. The program and its commands are one CommonJS script,
 * `cli.cjs`, which the bin script runs from V8's code cache through `code-cache.js` (`src/code-cache/`): with its
 * compiled code cached, the whole program starts faster than a few lazily loaded ES modules did. Everything that runs
 * in a worker thread is an ES module, split in chunks, loaded when that command runs.
 *
 * Entry points sit side by side in `bundle/`, so that code resolving files relative to itself (`../package.json`,
 * the range and pool workers beside the range engine, the bench child) finds them as it does in `src/`. Each module
 * a worker loads by URL for a command (`src/commands/<name>/range-consumer.ts` and `worker-task.ts`) is an entry of
 * its own, `<name>-<module>.js`, where `src/command-modules.ts` finds it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transformSync } from 'esbuild';

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

/** The program: one CommonJS script, run from V8's code cache. */
const CLI_ENTRY = 'src/cli.ts';
const CLI_SCRIPT = 'cli.cjs';

/** What the bin script loads first, to run the program from its code cache: one module, sharing no chunk. */
const CODE_CACHE_ENTRY = 'src/code-cache/index.ts';
const CODE_CACHE_MODULE = 'code-cache.js';

/** The ES module entry points of the workers, by the name of the file each becomes. */
const ENTRY_POINTS = {
  'range-worker': join(NODE_PACKAGE, 'src/ranges/range-worker.ts'),
  'pool-worker': join(NODE_PACKAGE, 'src/ranges/pool-worker.ts'),
  'bench-child': 'src/commands/bench/bench-child.ts',
  ...workerModuleEntries(),
};

/** The entry points' files, which a running CLI (or its workers) loads by name; they are swapped in last. */
const ENTRIES = [...Object.keys(ENTRY_POINTS).map((name) => `${name}.js`), CODE_CACHE_MODULE, CLI_SCRIPT];

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
  const [, , cli] = await Promise.all([
    build(bundleOptions(outdir)),
    build({ ...COMMON_OPTIONS, entryPoints: { 'code-cache': CODE_CACHE_ENTRY }, outdir, format: 'esm' }),
    build(cliScriptOptions(outdir)),
  ]);
  const [script] = cli.outputFiles;
  const text = asciiOnly(script.text);
  // The code cache is keyed by this digest: V8 itself checks only the source's length.
  const key = createHash('sha256').update(text).digest('hex');
  await writeFile(join(outdir, CLI_SCRIPT), `// code-cache-key: ${key}\n${text}`);
}

/**
 * `text` with every character past ASCII written as a `\u` escape. esbuild escapes them everywhere but in regular
 * expression literals (a few libraries match `…` or `ẞ`), and one such character makes the whole script a string of
 * two-byte characters, which takes V8 twice the memory and Node several milliseconds more to decode at each start.
 * An escape means the same character in a string, a template, an identifier and a regular expression, with or
 * without the `u` flag (a surrogate pair of escapes is one code point there). The result is checked to parse.
 */
function asciiOnly(text) {
  // A backslash before the character (an identity escape, which means the character itself) is dropped, or it would
  // escape the new escape's own backslash.
  const escaped = text.replace(/(\\*)([^\0-\x7f])/g, (_, backslashes, unit) => {
    const kept = backslashes.length % 2 === 1 ? backslashes.slice(1) : backslashes;
    return `${kept}\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  if (escaped !== text) transformSync(escaped, { loader: 'js', format: 'cjs', logLevel: 'silent' });
  return escaped;
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

/** What both builds share. */
const COMMON_OPTIONS = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Workspace packages are bundled from their sources, like tests read them.
  conditions: ['@cursor-stream/source'],
  external: OPTIONAL_PEERS,
  // Smaller files parse faster.
  minify: true,
  plugins: [lazyChildProcessForCommander],
  logLevel: 'warning',
};

/**
 * esbuild's options for the program's script, returned in memory (`write: false`) to be written with its key. The
 * script's `import()`s, of Node's modules and of the optional peers (CommonJS packages), become `require`s, which
 * a script compiled from the code cache can call; `import.meta.url` is the script's own URL.
 */
export function cliScriptOptions(outdir) {
  return {
    ...COMMON_OPTIONS,
    entryPoints: { cli: CLI_ENTRY },
    outdir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__cliScriptUrl' },
    banner: { js: "const __cliScriptUrl = require('node:url').pathToFileURL(__filename).href;" },
    write: false,
  };
}

/** esbuild's options for the ES modules written to `outdir`. */
export function bundleOptions(outdir) {
  return {
    ...COMMON_OPTIONS,
    entryPoints: ENTRY_POINTS,
    outdir,
    splitting: true,
    format: 'esm',
    // commander and ws are CommonJS; their require() calls need a require in the ES module. Most ask for Node's own
    // modules, which need no resolving: `node:module` (and a require of this file) is loaded only for any other.
    banner: {
      js: "const require = (id) => process.getBuiltinModule(id) ?? process.getBuiltinModule('node:module').createRequire(import.meta.url)(id);",
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  await bundleCli({ clean: process.argv.includes('--clean') });
