/**
 * What the bundled CLI loads before a command runs, and what a command on a small log loads: read from esbuild's
 * account of the bundle, following the static imports of each file from the entry. A module imported through an
 * entry that gathers many (a package's subpath) lands in the chunk of everything it gathers, so a value imported
 * from such an entry on the start-up path would load all of it.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPORT_TARGETS } from '@cursor-stream/export/targets';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations.
import { bundleOptions } from '../scripts/bundle.mjs';
import { commandModuleUrl, type WorkerModule } from '../src/command-modules.ts';

let metafile: Metafile;
const scratch = mkdtempSync(join(tmpdir(), 'cursor-stream-lazy-'));

beforeAll(async () => {
  const options = bundleOptions(scratch) as Parameters<typeof build>[0];
  metafile = (await build({ ...options, write: false, metafile: true })).metafile as Metafile;
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The source files loaded once the outputs of `entries` are: each output with the ones it imports statically. */
function loadedBy(...entries: string[]): string[] {
  const outputs = metafile.outputs;
  const todo = Object.keys(outputs).filter((path) => entries.includes(outputs[path]?.entryPoint ?? ''));
  expect(todo).toHaveLength(entries.length);
  const seen = new Set<string>();
  for (let output = todo.pop(); output !== undefined; output = todo.pop()) {
    if (seen.has(output)) continue;
    seen.add(output);
    for (const imported of outputs[output]?.imports ?? [])
      if (imported.kind === 'import-statement' && imported.external !== true) todo.push(imported.path);
  }
  const inputs = [...seen].flatMap((output) =>
    Object.entries(outputs[output]?.inputs ?? {})
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path),
  );
  return [...new Set(inputs)].sort();
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
    // A require() esbuild cannot resolve stays external: ws's optional native add-ons, tried in a try/catch.
    const external = Object.values(metafile.outputs).flatMap((output) =>
      output.imports.filter(
        (imported) =>
          imported.external === true && !isBuiltin(imported.path) && imported.kind !== 'require-call',
      ),
    );
    expect(new Set(external.map((imported) => imported.kind))).toEqual(new Set(['dynamic-import']));
    const declared = new Set(EXPORT_TARGETS.flatMap((target) => target.peers));
    for (const { path } of external) expect(declared, path).toContain(path);
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
      Object.entries(metafile.outputs).map(([output, { entryPoint }]) => [
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
