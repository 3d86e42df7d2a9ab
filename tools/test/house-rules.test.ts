/**
 * The workspace keeps its layout: every source file's imports obey the house rules of `tools/house-rules.ts`. Each
 * rule is also shown to fail, on a small workspace held in memory that breaks it and only it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkHouseRules, findCycle, type HouseRule, importsOf, type Workspace } from '../house-rules.ts';

const REPO_ROOT = join(import.meta.dirname, '../..');

/** The workspace as it is: every `.ts` file under each package's `src`, and each package's npm name. */
function realWorkspace(): Workspace {
  const files = new Map<string, string>();
  const packageNames = new Map<string, string>();
  for (const folder of readdirSync(join(REPO_ROOT, 'packages'))) {
    const root = join(REPO_ROOT, 'packages', folder);
    packageNames.set(
      folder,
      (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string }).name,
    );
    for (const path of readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }))
      if (path.endsWith('.ts'))
        files.set(`packages/${folder}/src/${path}`, readFileSync(join(root, 'src', path), 'utf8'));
  }
  return { files, packageNames };
}

const NAMES = new Map([
  ['core', '@cursor-stream/core'],
  ['node', '@cursor-stream/node'],
  ['inspect', '@cursor-stream/inspect'],
  ['cli', 'cursor-stream'],
]);

/** A workspace of the given files (path → text). */
function workspace(files: Record<string, string>): Workspace {
  return { files: new Map(Object.entries(files)), packageNames: NAMES };
}

function rulesBroken(files: Record<string, string>): HouseRule[] {
  return checkHouseRules(workspace(files)).map((violation) => violation.rule);
}

describe('the workspace', () => {
  test('keeps every house rule', () => {
    const real = realWorkspace();
    expect(real.files.size).toBeGreaterThan(100);
    expect(checkHouseRules(real).map((violation) => violation.message)).toEqual([]);
  });
});

describe('each rule fails where it is broken', () => {
  test('a relative import across packages', () => {
    const files = {
      'packages/core/src/a.ts': 'export const a = 1;\n',
      'packages/inspect/src/b.ts': "import { a } from '../../core/src/a.ts';\n",
    };
    expect(rulesBroken(files)).toEqual(['cross-package-relative']);
    expect(
      rulesBroken({ ...files, 'packages/inspect/src/b.ts': "import { a } from '@cursor-stream/core';\n" }),
    ).toEqual([]);
  });

  test("an import that bypasses a capability folder's index.ts", () => {
    const files = {
      'packages/core/src/tools/index.ts': "export { headline } from './headline.ts';\n",
      'packages/core/src/tools/headline.ts':
        "import { label } from './label.ts';\nexport const headline = label;\n",
      'packages/core/src/tools/label.ts': "export const label = 'x';\n",
      'packages/core/src/render.ts': "import { headline } from './tools/headline.ts';\n",
    };
    expect(rulesBroken(files)).toEqual(['front-door']);
    // Through the front door, and inside the folder, imports are free.
    expect(
      rulesBroken({
        ...files,
        'packages/core/src/render.ts': "import { headline } from './tools/index.ts';\n",
      }),
    ).toEqual([]);
  });

  test("an import of a nested capability folder's index.ts from outside the folder holding it", () => {
    const files = {
      'packages/core/src/tools/index.ts': "export * from './inner/index.ts';\n",
      'packages/core/src/tools/inner/index.ts': 'export const inner = 1;\n',
      'packages/core/src/render.ts': "import { inner } from './tools/inner/index.ts';\n",
    };
    expect(rulesBroken(files)).toEqual(['front-door']);
  });

  test('a command importing another command, or the registry', () => {
    const files = {
      'packages/cli/src/commands/index.ts':
        "import { a } from './a/command.ts';\nimport { b } from './b/command.ts';\n",
      'packages/cli/src/commands/a/command.ts': "import { x } from './run.ts';\n",
      'packages/cli/src/commands/a/run.ts': 'export const x = 1;\n',
      'packages/cli/src/commands/b/command.ts': "import { x } from '../a/run.ts';\n",
    };
    expect(rulesBroken(files)).toEqual(['command-to-command']);
    expect(
      rulesBroken({
        ...files,
        'packages/cli/src/commands/b/command.ts': "import { COMMANDS } from '../index.ts';\n",
      }),
    ).toContain('command-to-command');
  });

  test('a Node built-in in a browser-safe package, named with or without node:', () => {
    expect(rulesBroken({ 'packages/core/src/a.ts': "import { createHash } from 'node:crypto';\n" })).toEqual([
      'node-in-browser-package',
    ]);
    expect(rulesBroken({ 'packages/inspect/src/a.ts': "import { readFileSync } from 'fs';\n" })).toEqual([
      'node-in-browser-package',
    ]);
    expect(rulesBroken({ 'packages/node/src/a.ts': "import { readFileSync } from 'node:fs';\n" })).toEqual(
      [],
    );
  });

  test('packages importing each other in a cycle', () => {
    const files = {
      'packages/core/src/a.ts': "import { b } from '@cursor-stream/inspect/b';\n",
      'packages/inspect/src/b.ts': "import { c } from '@cursor-stream/node';\n",
      'packages/node/src/c.ts': "import type { a } from '@cursor-stream/core';\n",
    };
    expect(rulesBroken(files)).toEqual(['package-cycle']);
    expect(rulesBroken({ ...files, 'packages/node/src/c.ts': 'export const c = 1;\n' })).toEqual([]);
  });

  test('capability folders importing each other in a cycle', () => {
    const files = {
      'packages/core/src/events/index.ts': "import { t } from '../tools/index.ts';\n",
      'packages/core/src/tools/index.ts': "export { t } from './t.ts';\n",
      'packages/core/src/tools/t.ts': "import type { e } from '../events/index.ts';\n",
    };
    expect(rulesBroken(files)).toEqual(['capability-cycle']);
    expect(rulesBroken({ ...files, 'packages/core/src/tools/t.ts': 'export const t = 1;\n' })).toEqual([]);
  });
});

describe('reading imports', () => {
  test('finds static, type-only, side-effect, re-exported and dynamic imports', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import './c.ts';",
      "export * from './d.ts';",
      "const e = await import('./e.ts');",
    ].join('\n');
    expect(importsOf(text)).toEqual(['./a.ts', './b.ts', './c.ts', './d.ts', './e.ts']);
  });

  test('ignores imports shown in comments, strings, templates and regular expressions', () => {
    const text = [
      "// import { a } from './a.ts';",
      "/** import { b } from './b.ts'; */",
      'const c = "import from \'@cursor-stream/core\'";',
      "const d = `import { d } from './d.ts'`;",
      "const e = /from 'e'/;",
      "const f = Buffer.from('f');",
      "import { g } from './g.ts';",
    ].join('\n');
    expect(importsOf(text)).toEqual(['./g.ts']);
  });

  test('finds a cycle in a graph, and none in a graph without one', () => {
    const graph = (edges: [string, string][]) => {
      const map = new Map<string, Set<string>>();
      for (const [from, to] of edges) map.set(from, new Set([...(map.get(from) ?? []), to]));
      return map;
    };
    expect(
      findCycle(
        graph([
          ['a', 'b'],
          ['b', 'c'],
          ['c', 'a'],
        ]),
      ),
    ).toEqual(['a', 'b', 'c', 'a']);
    expect(
      findCycle(
        graph([
          ['a', 'b'],
          ['b', 'c'],
          ['a', 'c'],
        ]),
      ),
    ).toBeUndefined();
  });
});
