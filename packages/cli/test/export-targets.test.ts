/**
 * The CLI ships the export targets' optional packages as its own optional peers, left out of the bundle: both lists
 * must be what the targets declare they load.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXPORT_FLAGS, EXPORT_TARGETS, type ExportFlagName } from '@cursor-stream/export/targets';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { describe, expect, test } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations.
import { bundleOptions } from '../scripts/bundle.mjs';
import { exportFlagHelp, exportFormatsHelp } from '../src/commands/export/command.ts';

interface Manifest {
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function manifest(pkg: string): Manifest {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'packages', pkg, 'package.json'), 'utf8')) as Manifest;
}

const DECLARED = [...new Set(EXPORT_TARGETS.flatMap((target) => target.peers))].sort();

describe("the export targets' optional packages", () => {
  test('are the peer dependencies of the CLI, each optional, in the ranges the export package asks for', () => {
    const cli = manifest('cli');
    const exporter = manifest('export');
    expect(Object.keys(cli.peerDependencies ?? {}).sort()).toEqual(DECLARED);
    for (const name of DECLARED) {
      expect(cli.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
      expect(exporter.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
      expect(cli.peerDependencies?.[name], name).toBe(exporter.peerDependencies?.[name]);
    }
  });

  test("are the bundle's external modules, and nothing else is", () => {
    const { external } = bundleOptions('unused') as { external: string[] };
    expect([...external].sort()).toEqual(DECLARED);
  });
});

describe('export --help', () => {
  test('lists every target with its lines, and each flag with the help of each target taking it', () => {
    const formats = exportFormatsHelp().split('\n');
    expect(formats).toHaveLength(EXPORT_TARGETS.reduce((lines, target) => lines + target.help.length, 0));
    for (const target of EXPORT_TARGETS) {
      const first = formats.find((line) => line.startsWith(`  ${target.name} `));
      expect(first?.trimStart()).toMatch(new RegExp(`^${target.name} +`));
      expect(first?.endsWith(` ${target.help[0]}`), target.name).toBe(true);
    }
    expect(exportFlagHelp('output')).toBe(
      'the OTLP JSON lines file (- for standard output) or the DuckDB file',
    );
    for (const flag of Object.keys(EXPORT_FLAGS) as ExportFlagName[])
      expect(exportFlagHelp(flag)).not.toBe('');
  });
});
