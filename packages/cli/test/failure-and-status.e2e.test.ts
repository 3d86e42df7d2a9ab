import { runCli } from '@cursor-stream/test-kit/run-cli';
import { describe, expect, test } from 'vitest';

const FAILED = 'corpus/official/failure-line-before-error-result.ndjson';
const RECONNECTS = 'corpus/official/reconnect-retry-plan.ndjson';
const SENTENCE = "RetriableError: [invalid_argument] unknown option '--system-prompt'";

describe("a failed run's own sentence", () => {
  test('render shows it in red on a terminal and plain when piped', async () => {
    const colored = await runCli(['render', FAILED], { env: { FORCE_COLOR: '1' } });
    expect(colored.stdout).toContain(`\u001b[31m✗ error: ${SENTENCE}\u001b[39m`);
    const plain = await runCli(['render', FAILED]);
    expect(plain.stdout).not.toContain('\u001b[');
    expect(plain.stdout).toContain(`✗ error: ${SENTENCE}\n✗ failed · 310 ms\n`);
  });

  test('summary shows it, and summary --json gives it with its line', async () => {
    const text = await runCli(['summary', FAILED]);
    expect(text.stdout).toContain(`  error   ${SENTENCE} (unknown-option, line 3)\n`);
    const json = await runCli(['summary', '--json', FAILED]);
    expect(JSON.parse(json.stdout).sessions[0].error).toEqual({
      message: SENTENCE,
      code: 'unknown-option',
      line: 3,
    });
  });

  test('validate quotes the output line as non-json-output', async () => {
    const run = await runCli(['validate', FAILED]);
    expect(run.stdout).toContain(`${FAILED}:3: non-json-output: "${SENTENCE}"\n`);
  });
});

describe('run status and interaction events', () => {
  test('render prints one dim line each, and summary counts them', async () => {
    const render = await runCli(['render', RECONNECTS]);
    expect(render.stdout).toContain('· reconnecting (attempt 1)\n');
    expect(render.stdout).toContain('· plan: # Plan: tidy notes - Merge duplicates - Sort by date\n');
    expect(render.stdout).not.toMatch(/^· (connection|retry|interaction_query)\//m);
    const colored = await runCli(['render', RECONNECTS], { env: { FORCE_COLOR: '1' } });
    expect(colored.stdout).toContain('\u001b[2m· reconnecting (attempt 1)\u001b[22m');
    const summary = await runCli(['summary', '--json', RECONNECTS]);
    expect(JSON.parse(summary.stdout).sessions[0].counts).toMatchObject({ status: 4, interaction: 2 });
  });
});
