/**
 * The packages as users get them: every package under `packages/` that is not private is packed (its `prepack`
 * builds it), the tarballs are installed with plain npm into a fresh project outside the workspace, and there every
 * name the READMEs import from a package is imported in plain Node, type-checked by a strict `nodenext` file, and
 * the CLI runs through `npx`. A package added later is picked up as it is.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const run = promisify(execFile);
const REPO_ROOT = join(import.meta.dirname, '../..');
const TSC = join(REPO_ROOT, 'node_modules/.bin/tsc');
const RECORDING = join(REPO_ROOT, 'corpus/official/docs-example-zh.ndjson');

interface Manifest {
  name: string;
  private?: boolean;
  bin?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dependencies?: Record<string, string>;
  files?: string[];
  publishConfig?: { access?: string };
}

/** The publishable packages: every folder of `packages/` with a manifest that is not private. */
const PACKAGES = readdirSync(join(REPO_ROOT, 'packages'))
  .filter((dir) => existsSync(join(REPO_ROOT, 'packages', dir, 'package.json')))
  .map((dir) => ({ dir, manifest: readManifest(join(REPO_ROOT, 'packages', dir)) }))
  .filter(({ manifest }) => manifest.private !== true);
const NAMES = new Set(PACKAGES.map(({ manifest }) => manifest.name));

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The names each of our packages is shown exporting: `import { a, type B } from '<package>'` in the READMEs. */
function documentedImports(): Map<string, { values: Set<string>; types: Set<string> }> {
  const readmes = [
    join(REPO_ROOT, 'README.md'),
    ...PACKAGES.map(({ dir }) => join(REPO_ROOT, 'packages', dir, 'README.md')),
  ];
  const found = new Map<string, { values: Set<string>; types: Set<string> }>();
  for (const readme of readmes.filter((path) => existsSync(path))) {
    const text = readFileSync(readme, 'utf8');
    for (const match of text.matchAll(/^import\s*(type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/gm)) {
      const [, typeOnly, list = '', specifier = ''] = match;
      if (![...NAMES].some((name) => specifier === name || specifier.startsWith(`${name}/`))) continue;
      const entry = found.get(specifier) ?? { values: new Set<string>(), types: new Set<string>() };
      for (const item of list
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)) {
        const isType = typeOnly !== undefined || item.startsWith('type ');
        const name = item.replace(/^type\s+/, '').split(/\s+as\s+/)[0] ?? '';
        (isType ? entry.types : entry.values).add(name);
      }
      found.set(specifier, entry);
    }
  }
  return found;
}

const DOCUMENTED = documentedImports();
let scratch = '';
let project = '';
let tarballs: string[] = [];
/** Why the install could not run here (no registry), when it could not; the checks then say so and skip. */
let unreachable: string | undefined;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cursor-stream-packed-'));
  const packed = join(scratch, 'tarballs');
  for (const { dir } of PACKAGES) {
    await run('pnpm', ['pack', '--pack-destination', packed], { cwd: join(REPO_ROOT, 'packages', dir) });
  }
  tarballs = readdirSync(packed).map((file) => join(packed, file));
  project = join(scratch, 'project');
  await run('mkdir', ['-p', project]);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'fresh-project', private: true, type: 'module' }),
  );
  // What a user adds beside the packages: their required peers, and Node's types for a typed project. Optional
  // peers (DuckDB, OpenTelemetry, the AI SDK) are loaded only by the entry that needs them, so the imports below
  // must work without them.
  const peers = PACKAGES.flatMap(({ manifest }) =>
    Object.entries(manifest.peerDependencies ?? {})
      .filter(([name]) => !NAMES.has(name) && manifest.peerDependenciesMeta?.[name]?.optional !== true)
      .map(([name, range]) => `${name}@${range}`),
  );
  try {
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs, ...peers, '@types/node@20'],
      {
        cwd: project,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  } catch (error) {
    const text = String((error as { stderr?: string }).stderr ?? error);
    if (!/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH/.test(text)) throw error;
    unreachable = 'the npm registry cannot be reached to install third-party dependencies';
    console.warn(`note: ${unreachable}; the installed-package checks are skipped`);
  }
}, 600_000);

afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true, maxRetries: 5 });
}, 60_000);

describe('the packed packages', () => {
  test('every publishable package is packed, with a README, its licence and no workspace protocol or sources left in', async () => {
    expect(tarballs).toHaveLength(PACKAGES.length);
    for (const tarball of tarballs) {
      const { stdout: listing } = await run('tar', ['-tzf', tarball]);
      const files = listing.split('\n').filter(Boolean);
      expect(files, tarball).toContain('package/README.md');
      // MIT asks for its notice in every copy: each package carries the repository's licence.
      expect(files, tarball).toContain('package/LICENSE');
      expect(
        files.filter((file) => /^package\/(src|test|scripts)\//.test(file)),
        tarball,
      ).toEqual([]);
      const { stdout: manifest } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
      expect(manifest, tarball).not.toContain('workspace:');
      expect(manifest, tarball).not.toContain('@cursor-stream/source');
      // A scoped package is private on its first publish unless it says otherwise.
      expect((JSON.parse(manifest) as Manifest).publishConfig?.access, tarball).toBe('public');
      // Source maps only with the sources they point to, and no JavaScript naming a map that is not there.
      const unpacked = mkdtempSync(join(scratch, 'unpacked-'));
      await run('tar', ['-xzf', tarball, '-C', unpacked]);
      for (const file of files) {
        if (file.endsWith('.map')) {
          const sources = (JSON.parse(readFileSync(join(unpacked, file), 'utf8')) as { sources?: string[] })
            .sources;
          const missing = (sources ?? [])
            .map((source) => posix.join(posix.dirname(file), source))
            .filter((source) => !files.includes(source));
          expect(missing, `${tarball}: ${file} points to sources not in the package`).toEqual([]);
        } else if (/\.(js|d\.ts)$/.test(file)) {
          const mapped = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(
            readFileSync(join(unpacked, file), 'utf8'),
          )?.[1];
          if (mapped === undefined || mapped.startsWith('data:')) continue;
          expect(files, `${tarball}: ${file} names a source map the package lacks`).toContain(
            posix.join(posix.dirname(file), mapped),
          );
        }
      }
    }
  });

  test('the READMEs document imports of every library package', () => {
    const libraries = PACKAGES.filter(({ manifest }) => manifest.bin === undefined).map(
      ({ manifest }) => manifest.name,
    );
    const documented = [...DOCUMENTED.keys()];
    const undocumented = libraries.filter(
      (name) => !documented.some((specifier) => specifier === name || specifier.startsWith(`${name}/`)),
    );
    expect(undocumented).toEqual([]);
  });

  test('every name the READMEs import from a package is there in plain Node', async (context) => {
    if (unreachable !== undefined) context.skip(unreachable);
    const checks = [...DOCUMENTED].map(([specifier, { values }]) => ({ specifier, names: [...values] }));
    const script = `
      const checks = ${JSON.stringify(checks)};
      const missing = [];
      for (const { specifier, names } of checks) {
        const module = await import(specifier);
        for (const name of names) if (module[name] === undefined) missing.push(specifier + ': ' + name);
      }
      console.log(JSON.stringify(missing));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    expect(JSON.parse(stdout)).toEqual([]);
  });

  test('a strict nodenext project type-checks against every documented name', async (context) => {
    if (unreachable !== undefined) context.skip(unreachable);
    const lines = [...DOCUMENTED].flatMap(([specifier, { values, types }], index) => [
      `import * as m${index} from '${specifier}';`,
      `export const values${index} = [${[...values].map((name) => `m${index}.${name}`).join(', ')}];`,
      `export type Types${index} = [${[...types].map((name) => `m${index}.${name}`).join(', ')}];`,
    ]);
    // One deliberate error proves the checker ran, on this file, strictly.
    const canary = 'export const canary: string = 1;';
    writeFileSync(join(project, 'check.ts'), `${[...lines, canary].join('\n')}\n`);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2023', 'dom'],
          types: ['node'],
          // Declarations of optional peers left out above are the packages' users' to add.
          skipLibCheck: true,
          noEmit: true,
        },
        files: ['check.ts'],
      }),
    );
    const result = await run(TSC, ['-p', project]).catch((error: { stdout?: string }) => ({
      stdout: String(error.stdout ?? error),
    }));
    const errors = result.stdout.split('\n').filter((line) => line.includes('error TS'));
    expect(errors).toEqual([
      expect.stringMatching(new RegExp(`check\\.ts\\(${lines.length + 1},\\d+\\): error TS2322`)),
    ]);
  });

  test('npx cursor-stream answers --help and summarizes a recording', async (context) => {
    if (unreachable !== undefined) context.skip(unreachable);
    const help = await run('npx', ['--no-install', 'cursor-stream', '--help'], { cwd: project });
    expect(help.stdout).toMatch(/summary/);
    const summary = await run('npx', ['--no-install', 'cursor-stream', 'summary', '--json', RECORDING], {
      cwd: project,
    });
    expect(JSON.parse(summary.stdout).sessions[0]).toMatchObject({
      sessionId: 'c6b62c6f-7ead-4fd6-9922-e952131177ff',
      status: 'success',
    });
  });

  test('the command line installs nothing beside itself: its bundle holds what it runs', () => {
    const cli = PACKAGES.find(({ manifest }) => manifest.bin !== undefined);
    expect(cli?.manifest.dependencies ?? {}).toEqual({});
  });
});
