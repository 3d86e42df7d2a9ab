/**
 * What the bundled CLI runs before a command runs, and what a command on a small log runs: read from esbuild's
 * account of the program's script, following the static imports of each module from the entry. The script holds
 * every command, but a module reached only through an `import()` (a command's run module and what it alone imports)
 * is wrapped in a function that runs it on that import: its top level costs nothing until then, and its code is
 * compiled only when it runs.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPORT_TARGETS } from '@cursor-stream/export/targets';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations.
import { bundleOptions, cliScriptOptions } from '../scripts/bundle.mjs';
import { commandModuleUrl, type WorkerModule } from '../src/command-modules.ts';

/** esbuild's account of the program's script. */
let program: Metafile;
/** esbuild's account of the workers' modules. */
let workers: Metafile;
const scratch = mkdtempSync(join(tmpdir(), 'cursor-stream-lazy-'));

beforeAll(async () => {
  const metafileOf = async (options: unknown) =>
    (await build({ ...(options as Parameters<typeof build>[0]), write: false, metafile: true }))
      .metafile as Metafile;
  program = await metafileOf(cliScriptOptions(scratch));
  workers = await metafileOf(bundleOptions(scratch));
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The source files whose top level runs once `entries` have: each module with those it imports statically. */
function loadedBy(...entries: string[]): string[] {
  const inputs = program.inputs;
  for (const entry of entries) expect(inputs, entry).toHaveProperty([entry]);
  const todo = [...entries];
  const seen = new Set<string>();
  for (let input = todo.pop(); input !== undefined; input = todo.pop()) {
    if (seen.has(input)) continue;
    seen.add(input);
    for (const imported of inputs[input]?.imports ?? [])
      if (
        (imported.kind === 'import-statement' || imported.kind === 'require-call') &&
        imported.external !== true
      )
        todo.push(imported.path);
  }
  return [...seen].sort();
}

/** Code no command on a small log needs: the agent runner, the report, the validators, the range engine's workers. */
const HEAVY = [
  /^\.\.\/node\/src\/agent\//,
  /^\.\.\/inspect\/src\/(report|usage|census|validate)\/(?!usage-grouping\.ts$)/,
  /generated-validators/,
  /^\.\.\/node\/src\/ranges\/(range-scheduler|range-run|range-worker|worker-pool|pool-worker)\.ts$/,
  /^\.\.\/relay\//,
  // The export targets' registry is what `--help` lists; their implementations are loaded by a target's create.
  /^\.\.\/export\/(?!src\/(targets|optional-peers)\.ts$)/,
];

function heavyIn(files: readonly string[]): string[] {
  return files.filter((file) => HEAVY.some((pattern) => pattern.test(file)));
}

describe('the bundled CLI', () => {
  test('loads no reader, normalizer or command code before a command runs (--help, --version)', () => {
    const start = loadedBy('src/cli.ts');
    expect(start).toContain('src/program.ts');
    // The dialect names and export targets for `--help` and the escaping of what is printed are data and pure
    // string helpers, and the young generation's growth is what the bin sets as it starts: the only library code
    // start-up may load.
    const startUpLibrary =
      /^\.\.\/(core\/src\/(dialects\/registry|text\/[a-z-]+)|export\/src\/(targets|optional-peers)|node\/src\/logs\/young-generation)\.ts$/;
    expect(
      start.filter((file) => /^\.\.\/(core|node|relay|export)\//.test(file) && !startUpLibrary.test(file)),
    ).toEqual([]);
    expect(heavyIn(start)).toEqual([]);
    expect(start).toContain('../export/src/targets.ts');
  });

  test("leaves out only the export targets' optional packages, each loaded when its target runs", () => {
    // A require() esbuild cannot resolve stays external: ws's optional native add-ons, tried in a try/catch. The
    // optional packages are import()s in the sources (each a require in the program's script, which runs from the
    // code cache, where import() cannot be called).
    const external = [...Object.values(program.inputs), ...Object.values(workers.inputs)].flatMap((input) =>
      input.imports.filter(
        (imported) =>
          imported.external === true && !isBuiltin(imported.path) && imported.kind !== 'require-call',
      ),
    );
    expect(new Set(external.map((imported) => imported.kind))).toEqual(new Set(['dynamic-import']));
    const declared = new Set(EXPORT_TARGETS.flatMap((target) => target.peers));
    for (const { path } of external) expect(declared, path).toContain(path);
  });

  test("the program's script calls no import(): a script compiled from the code cache cannot", () => {
    const [script] = Object.keys(program.outputs);
    expect(
      program.outputs[script ?? '']?.imports.filter((imported) => imported.kind === 'dynamic-import'),
    ).toEqual([]);
  });

  test('loads no view before a command runs, but the list of the groupings of usage for --help', () => {
    const views = loadedBy('src/cli.ts').filter((file) => file.startsWith('../inspect/'));
    expect(views).toEqual(['../inspect/src/usage/usage-grouping.ts']);
  });

  test('reads a small log for summary, normalize and render without the heavy code', () => {
    for (const command of ['summary', 'normalize', 'render']) {
      const loaded = loadedBy('src/cli.ts', `src/commands/${command}/run.ts`);
      expect(loaded).toContain('../node/src/logs/read-log.ts');
      expect(heavyIn(loaded)).toEqual([]);
    }
  });
});

describe("the bundle's workers", () => {
  test('are files of their own, as is each module a worker loads for a command, where the CLI finds it', () => {
    const entries = new Map(
      Object.entries(workers.outputs).map(([output, { entryPoint }]) => [
        output.split('/').at(-1),
        entryPoint,
      ]),
    );
    expect(entries.get('range-worker.js')).toMatch(/node\/src\/ranges\/range-worker\.ts$/);
    expect(entries.get('pool-worker.js')).toMatch(/node\/src\/ranges\/pool-worker\.ts$/);
    const commands = join(import.meta.dirname, '../src/commands');
    const modules = readdirSync(commands, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap(({ name }) =>
        (['range-consumer', 'worker-task'] as WorkerModule[])
          .filter((module) => existsSync(join(commands, name, `${module}.ts`)))
          .map((module) => [name, module] as const),
      );
    expect(modules).toContainEqual(['summary', 'range-consumer']);
    expect(modules).toContainEqual(['validate', 'worker-task']);
    for (const [name, module] of modules) {
      expect(entries.get(`${name}-${module}.js`)).toBe(`src/commands/${name}/${module}.ts`);
      expect(existsSync(commandModuleUrl(name, module))).toBe(true);
    }
  });
});
