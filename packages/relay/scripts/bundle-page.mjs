/**
 * Bundles the live page's script (page/app.ts and what it imports from the workspace) with esbuild into
 * src/generated/page-script.ts, a string the relay serves. Nothing is fetched: the page ships inside the package.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Writes src/generated/page-script.ts; resolves with the script. */
export async function bundlePage() {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['page/app.ts'],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@cursor-stream/source'],
    legalComments: 'none',
    minify: true,
    logLevel: 'warning',
  });
  const script = result.outputFiles[0]?.text ?? '';
  await mkdir(new URL('../src/generated', import.meta.url), { recursive: true });
  const module = `/** The live page's script, bundled from page/ by scripts/bundle-page.mjs. */\nexport const PAGE_SCRIPT: string = ${JSON.stringify(script)};\n`;
  await writeFile(new URL('../src/generated/page-script.ts', import.meta.url), module);
  return script;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundlePage();
