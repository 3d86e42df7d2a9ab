import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT, runCli } from './run-cli.ts';

/** Real runs of the CLI (see `corpus/captures/SOURCES.md`). */
const CAPTURES = join(REPO_ROOT, 'corpus/captures');

describe('render on real 2026.09 and 2026.10 captures', () => {
  test('an answer under `response` says how the question was answered, and why', async () => {
    const run = await runCli([
      'render',
      join(CAPTURES, 'harness-cli-normalizer__2026.09.15__probe-15-webfetch-rejected.ndjson'),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('\n· asks: webFetchRequestQuery\n· answered: rejected: User Rejected\n');
  });

  test('a plan accepted, and MCP tool discovery with the server and what was looked for', async () => {
    const [plan, discovery] = await Promise.all([
      runCli(['render', join(CAPTURES, 'satelle__2026.10.01__16-plan.ndjson')]),
      runCli(['render', join(CAPTURES, 'satelle__2026.10.01__14-refuse-delete-getMcpTools.ndjson')]),
    ]);
    expect(plan.stdout).toContain('\n· answered: success\n');
    expect(discovery.stdout).toContain('\n● getMcpTools "delete|Delete" in cursor\n');
    expect(discovery.stdout).toContain('\n● getMcpTools cursor: Delete\n');
  });

  test('validate --strict finds nothing unknown in them', async () => {
    const logs = readdirSync(CAPTURES)
      .filter((name) => name.endsWith('.ndjson'))
      .map((name) => join(CAPTURES, name));
    expect(logs.length).toBeGreaterThanOrEqual(6);
    const run = await runCli(['validate', '--strict', ...logs]);
    expect([run.code, run.stderr]).toEqual([0, '']);
  });
});
