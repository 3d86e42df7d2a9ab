/**
 * Bundles code for the browser the way a web app would (esbuild, `platform: 'browser'`, ESM), and fails if anything
 * in it imports a Node built-in: the tokenizer and the core must run without one.
 */

import { builtinModules } from 'node:module';
import { build, type Plugin } from 'esbuild';

/** Every Node built-in, with and without its `node:` prefix. */
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Refuses any Node built-in, naming the importer, instead of letting esbuild shim or externalize it. */
export const noNodeBuiltins: Plugin = {
  name: 'no-node-builtins',
  setup(bundler) {
    bundler.onResolve({ filter: /.*/ }, (args) => {
      if (!NODE_BUILTINS.has(args.path) && !args.path.startsWith('node:')) return undefined;
      return { errors: [{ text: `${args.importer} imports the Node built-in "${args.path}"` }] };
    });
  },
};

/** The browser bundle of `entry`, as ESM text. Rejects (with esbuild's errors) when it imports a Node built-in. */
export async function bundleForBrowser(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    // Workspace packages resolve to their TypeScript sources, as in the tests.
    conditions: ['@cursor-stream/source'],
    plugins: [noNodeBuiltins],
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild wrote no bundle.');
  return output.text;
}
