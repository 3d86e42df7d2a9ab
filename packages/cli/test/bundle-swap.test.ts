import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECORDING, runCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, describe, expect, test } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations.
import { bundleCli } from '../scripts/bundle.mjs';

// The clean-up is checked on a bundle of its own, apart from the one the other tests run.
const scratch = mkdtempSync(join(tmpdir(), 'cursor-stream-bundle-'));
const BUNDLE = join(scratch, 'bundle');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('rebuilding the bundle', () => {
  test('a CLI started during a rebuild always finds a complete bundle', async () => {
    let building = true;
    const rebuilt = (bundleCli() as Promise<void>).finally(() => {
      building = false;
    });
    const runs: { code: number | null; stderr: string }[] = [];
    do runs.push(await runCli(['summary', RECORDING]));
    while (building);
    await rebuilt;
    expect(runs.filter((run) => run.code !== 0)).toEqual([]);
  });

  test('a chunk of an older build stays a while for CLIs started before, and goes with a clean build', async () => {
    await bundleCli({ dir: BUNDLE });
    const stale = join(BUNDLE, 'chunk-OLDBUILD.js');
    writeFileSync(stale, 'export {};\n');
    await bundleCli({ dir: BUNDLE });
    expect(existsSync(stale)).toBe(true);

    const hoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(stale, hoursAgo, hoursAgo);
    await bundleCli({ dir: BUNDLE });
    expect(existsSync(stale)).toBe(false);

    writeFileSync(stale, 'export {};\n');
    await bundleCli({ dir: BUNDLE, clean: true });
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(BUNDLE)).toEqual(
      expect.arrayContaining([
        'cli.cjs',
        'code-cache.js',
        'range-worker.js',
        'pool-worker.js',
        'summary-range-consumer.js',
        'bench-child.js',
      ]),
    );
    expect(readdirSync(scratch)).toEqual(['bundle']);
  });
});
