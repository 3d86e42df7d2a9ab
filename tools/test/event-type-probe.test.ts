/**
 * Adding a member to the canonical event union makes the compiler name every file that must handle it, and only
 * those: the workspace's sources are copied to a scratch folder, a probe type is added to the union there, and
 * `tsc -b` must name exactly the files of `EVENT_TYPE_CONSUMERS`. The copy is first checked clean, so every error is
 * the probe's.
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EVENT_TYPE_CONSUMERS } from '../event-type-consumers.ts';

const run = promisify(execFile);
const REPO_ROOT = join(import.meta.dirname, '../..');
const TSC = join(REPO_ROOT, 'node_modules/.bin/tsc');
const EVENTS = 'packages/core/src/events/events.ts';

/** What the compiler needs: sources, scripts, manifests and project files; no recordings. */
const COMPILED = /\.(ts|mts|cts|js|mjs)$|(^|\/)(tsconfig[^/]*|package)\.json$/;

/** Sources the build generates and git ignores. */
const GENERATED = ['packages/core/src/generated', 'packages/relay/src/generated'];

/** The workspace's files as git sees them, tracked or new, without what it ignores. */
async function workspaceFiles(): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout.split('\n').filter((file) => COMPILED.test(file) && existsSync(join(REPO_ROOT, file)));
}

/**
 * A `node_modules` of the copy: its links kept as they are, so that workspace packages resolve to the copy's own
 * sources, and the package store linked from the original, so that the rest resolve as they do there.
 */
function linkModules(copy: string, folder: string): void {
  const from = join(REPO_ROOT, folder, 'node_modules');
  if (!existsSync(from)) return;
  const to = join(copy, folder, 'node_modules');
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (name === '.pnpm') symlinkSync(join(from, name), join(to, name));
    else if (!name.startsWith('.'))
      cpSync(join(from, name), join(to, name), { recursive: true, verbatimSymlinks: true });
  }
}

async function copyWorkspace(copy: string): Promise<void> {
  for (const file of await workspaceFiles()) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(REPO_ROOT, file), join(copy, file));
  }
  for (const folder of GENERATED) {
    if (existsSync(join(REPO_ROOT, folder)))
      cpSync(join(REPO_ROOT, folder), join(copy, folder), { recursive: true });
  }
  const packages = readdirSync(join(REPO_ROOT, 'packages')).map((name) => `packages/${name}`);
  for (const folder of ['.', 'bench', ...packages]) linkModules(copy, folder);
}

/** Adds `ProbeEvent` (`type: 'probe'`) to the union and to `CANONICAL_EVENT_TYPES`, as a new event type would be. */
function addProbeType(copy: string): void {
  const path = join(copy, EVENTS);
  let text = readFileSync(path, 'utf8');
  const edits: [string, string][] = [
    ['export type CanonicalEvent =\n', '  | ProbeEvent\n'],
    ['export const CANONICAL_EVENT_TYPES = [\n', "  'probe',\n"],
  ];
  for (const [anchor, added] of edits) {
    if (!text.includes(anchor))
      throw new Error(`${EVENTS} no longer has \`${anchor.trim()}\`: update the probe`);
    text = text.replace(anchor, `${anchor}${added}`);
  }
  text +=
    "\n/** A probe. */\nexport interface ProbeEvent extends CanonicalEventBase {\n  type: 'probe';\n}\n";
  writeFileSync(path, text);
}

/** The files `tsc -b` reports errors in, with how it ended. */
async function compile(copy: string): Promise<{ failed: boolean; files: string[]; output: string }> {
  const result = await run(TSC, ['-b', '--pretty', 'false'], { cwd: copy, maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout }) => ({ failed: false, output: stdout }),
    (error: { stdout?: string; stderr?: string }) => ({
      failed: true,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
  const files = [...result.output.matchAll(/^(\S[^(\n]*)\(\d+,\d+\): error TS\d+:/gm)].map(
    (match) => match[1] ?? '',
  );
  return { ...result, files: [...new Set(files)].sort() };
}

let copy = '';

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), 'cursor-stream-probe-'));
  await copyWorkspace(copy);
}, 120_000);

afterAll(() => {
  if (copy !== '') rmSync(copy, { recursive: true, force: true, maxRetries: 5 });
}, 60_000);

describe('a new canonical event type', () => {
  test('makes tsc -b name exactly the files that must handle it', async () => {
    const clean = await compile(copy);
    expect({ failed: clean.failed, files: clean.files }, clean.output).toEqual({ failed: false, files: [] });

    addProbeType(copy);
    const probed = await compile(copy);
    expect(probed.failed).toBe(true);
    expect(probed.files, probed.output).toEqual(EVENT_TYPE_CONSUMERS.map(({ file }) => file).sort());
  }, 600_000);
});
