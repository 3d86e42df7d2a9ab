/**
 * The rules that keep the workspace's layout, checked over the imports of every source file (`packages/<p>/src/**`).
 * Imports are read from the code with its comments and template literals blanked out, so that an import shown in
 * a comment does not count; type imports, re-exports and dynamic `import()` count like the others. Words used below:
 *
 * - A **package** is a folder `packages/<p>`; its sources are under `packages/<p>/src`.
 * - A **capability folder** is a folder below a package's `src` (not `src` itself) that holds an `index.ts`: its
 *   **front door**. From a file outside the folder, only its `index.ts` may be imported; files inside it import each
 *   other freely. Another package reaches a capability through the package's `exports` (its subpath entries), never
 *   by a relative path.
 * - A **command folder** is `packages/cli/src/commands/<name>/`.
 *
 * The rules:
 *
 * 1. `cross-package-relative`: a relative import resolves inside the importing file's own package.
 * 2. `front-door`: a relative import of a file in a capability folder that does not hold the importing file is an
 *    import of that folder's `index.ts` (for nested capability folders, of the outermost one the importer is not in).
 * 3. `command-to-command`: a file of a command folder imports nothing else of `commands/` (another command, or the
 *    registry).
 * 4. `node-in-browser-package`: the browser-safe packages (`BROWSER_SAFE_PACKAGES`) import no Node built-in
 *    (`node:*` or a bare built-in name such as `fs`), but in a file listed in `NODE_ENTRIES` (none today).
 * 5. `package-cycle`: the packages' imports of each other (`@cursor-stream/*` specifiers) form no cycle.
 * 6. `capability-cycle`: within a package, the imports between capability folders (each file counted in the
 *    innermost capability folder that holds it; files in no capability folder are not part of this graph) form no
 *    cycle.
 */

import { isBuiltin } from 'node:module';
import { posix } from 'node:path';

/** The packages that run in browsers as well as in Node: no Node built-in may be imported there. */
export const BROWSER_SAFE_PACKAGES = ['ndjson', 'core', 'inspect'] as const;

/**
 * Files of browser-safe packages that are declared Node-only entries (each behind its own `exports` subpath), where
 * Node built-ins are allowed. Empty: every entry of those packages runs in browsers.
 */
export const NODE_ENTRIES: readonly string[] = [];

/** Which rule a violation breaks; see the module's comment. */
export type HouseRule =
  | 'cross-package-relative'
  | 'front-door'
  | 'command-to-command'
  | 'node-in-browser-package'
  | 'package-cycle'
  | 'capability-cycle';

/** One broken rule, located at a file (or, for a cycle, its first file) and saying what to do instead. */
export interface HouseRuleViolation {
  readonly rule: HouseRule;
  readonly file: string;
  readonly message: string;
}

/** What the rules are checked over. */
export interface Workspace {
  /** Every source file, by its path from the repository's root (`packages/<p>/src/...`), with its text. */
  readonly files: ReadonlyMap<string, string>;
  /** The npm name of each package, by its folder name (`core` → `@cursor-stream/core`). */
  readonly packageNames: ReadonlyMap<string, string>;
}

const SOURCE = /^packages\/([^/]+)\/src\/(.+)$/;

/** The package folder of a source path, or undefined when the path is outside every package's `src`. */
function packageOf(path: string): string | undefined {
  return SOURCE.exec(path)?.[1];
}

/** A `/` starts a regular expression, not a division, after one of these (or at the start). */
const BEFORE_REGEX =
  /[(,=:[!&|?{};+\-*%<>~^]$|(?:^|[^\w$])(?:return|typeof|case|do|else|in|of|void|yield|await)$/;

/**
 * The code of a TypeScript file with its comments, literals and regular expressions blanked out (replaced by spaces,
 * so offsets hold), but the quoted strings right after `from`, `import` or `import(`: the specifiers of imports.
 */
export function codeOnly(text: string): string {
  let out = '';
  let index = 0;
  const blank = (end: number): void => {
    out += text.slice(index, end).replace(/[^\n]/g, ' ');
    index = end;
  };
  while (index < text.length) {
    const char = text[index];
    const next = text[index + 1];
    if (char === '/' && next === '/') {
      const end = text.indexOf('\n', index);
      blank(end === -1 ? text.length : end);
    } else if (char === '/' && next === '*') {
      const end = text.indexOf('*/', index + 2);
      blank(end === -1 ? text.length : end + 2);
    } else if (
      char === "'" ||
      char === '"' ||
      char === '`' ||
      (char === '/' && BEFORE_REGEX.test(out.trimEnd()))
    ) {
      let end = index + 1;
      let inClass = false;
      while (end < text.length && (text[end] !== char || inClass) && !(char !== '`' && text[end] === '\n')) {
        if (text[end] === '\\') end += 1;
        else if (char === '/' && text[end] === '[') inClass = true;
        else if (char === '/' && text[end] === ']') inClass = false;
        end += 1;
      }
      if ((char === "'" || char === '"') && SPECIFIER_BEFORE.test(out.trimEnd())) {
        out += text.slice(index, end + 1);
        index = end + 1;
      } else blank(end + 1);
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}

/** What comes before the quoted specifier of an import, a re-export or a dynamic import. */
const SPECIFIER_BEFORE = /(?:^|[^.\w$])(?:from|import|import\s*\()$/;

const IMPORT = /(?<![.\w$])(?:from\s*|import\s*(?:\(\s*)?)(['"])([^'"\n]+)\1/g;

/** The specifiers a file imports, statically or dynamically, type-only or not, or re-exports. */
export function importsOf(text: string): string[] {
  return [...codeOnly(text).matchAll(IMPORT)].map((match) => match[2] ?? '');
}

/** The capability folders of the workspace: folders below a package's `src` that hold an `index.ts`. */
function capabilityFolders(files: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const path of files) {
    const match = SOURCE.exec(path);
    if (match !== null && match[2] !== 'index.ts' && path.endsWith('/index.ts'))
      folders.add(posix.dirname(path));
  }
  return folders;
}

function isInside(path: string, folder: string): boolean {
  return path.startsWith(`${folder}/`);
}

/** The capability folders holding `path`, outermost first. */
function foldersHolding(path: string, folders: ReadonlySet<string>): string[] {
  return [...folders].filter((folder) => isInside(path, folder)).sort((a, b) => a.length - b.length);
}

/** The first cycle of a directed graph, as its nodes in order, or undefined. */
export function findCycle(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    path.push(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const cycle = visit(next);
        if (cycle !== undefined) return cycle;
      }
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of [...graph.keys()].sort()) {
    if (state.get(node) !== undefined) continue;
    const cycle = visit(node);
    if (cycle !== undefined) return cycle;
  }
  return undefined;
}

function addEdge(graph: Map<string, Set<string>>, from: string, to: string): void {
  const edges = graph.get(from) ?? new Set<string>();
  edges.add(to);
  graph.set(from, edges);
}

/** The package folder a bare specifier names, when it is one of the workspace's packages. */
function packageNamed(specifier: string, byName: ReadonlyMap<string, string>): string | undefined {
  for (const [name, folder] of byName)
    if (specifier === name || specifier.startsWith(`${name}/`)) return folder;
  return undefined;
}

/** Checks every rule over the workspace; an empty list means the layout holds. */
export function checkHouseRules(workspace: Workspace): HouseRuleViolation[] {
  const violations: HouseRuleViolation[] = [];
  const capabilities = capabilityFolders(workspace.files.keys());
  const byName = new Map([...workspace.packageNames].map(([folder, name]) => [name, folder]));
  const packageGraph = new Map<string, Set<string>>();
  const capabilityGraph = new Map<string, Set<string>>();
  const cycleFiles = new Map<string, string>();
  for (const [file, text] of [...workspace.files].sort(([a], [b]) => a.localeCompare(b))) {
    const own = packageOf(file);
    if (own === undefined) continue;
    const ownFolders = foldersHolding(file, capabilities);
    const ownCapability = ownFolders.at(-1);
    const command = /^packages\/cli\/src\/commands\/([^/]+)\//.exec(file)?.[1];
    for (const specifier of importsOf(text)) {
      const fail = (rule: HouseRule, message: string): void => {
        violations.push({ rule, file, message: `${file}: ${specifier}: ${message}` });
      };
      if (specifier.startsWith('node:') || isBuiltin(specifier)) {
        if ((BROWSER_SAFE_PACKAGES as readonly string[]).includes(own) && !NODE_ENTRIES.includes(file))
          fail('node-in-browser-package', `${own} runs in browsers: no Node built-in here`);
        continue;
      }
      if (!specifier.startsWith('.')) {
        const other = packageNamed(specifier, byName);
        if (other !== undefined && other !== own) addEdge(packageGraph, own, other);
        continue;
      }
      const target = posix.normalize(posix.join(posix.dirname(file), specifier));
      if (packageOf(target) !== own) {
        fail('cross-package-relative', `reaches into another package: import it by its package name`);
        continue;
      }
      const bypassed = foldersHolding(target, capabilities).find(
        (folder) => !isInside(file, folder) && target !== `${folder}/index.ts`,
      );
      if (bypassed !== undefined)
        fail('front-door', `bypasses the front door of ${bypassed}/: import ${bypassed}/index.ts`);
      if (command !== undefined) {
        const commands = 'packages/cli/src/commands';
        if (isInside(target, commands) && !isInside(target, `${commands}/${command}`))
          fail('command-to-command', `a command imports nothing of another command or of the registry`);
      }
      const targetCapability = foldersHolding(target, capabilities).at(-1);
      if (
        ownCapability !== undefined &&
        targetCapability !== undefined &&
        ownCapability !== targetCapability
      ) {
        addEdge(capabilityGraph, ownCapability, targetCapability);
        cycleFiles.set(`${ownCapability}→${targetCapability}`, file);
      }
    }
  }
  const packageCycle = findCycle(packageGraph);
  if (packageCycle !== undefined)
    violations.push({
      rule: 'package-cycle',
      file: `packages/${packageCycle[0]}`,
      message: `the packages import each other in a cycle: ${packageCycle.join(' → ')}`,
    });
  const capabilityCycle = findCycle(capabilityGraph);
  if (capabilityCycle !== undefined)
    violations.push({
      rule: 'capability-cycle',
      file: cycleFiles.get(`${capabilityCycle[0]}→${capabilityCycle[1]}`) ?? capabilityCycle[0] ?? '',
      message: `capability folders import each other in a cycle: ${capabilityCycle.join(' → ')}`,
    });
  return violations;
}
