import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { runCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, describe, expect, test } from 'vitest';

/** Real runs of the CLI (see `corpus/captures/SOURCES.md`). */
const CAPTURES = join(REPO_ROOT, 'corpus/captures');

const scratch = mkdtempSync(join(tmpdir(), 'cursor-stream-captures-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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

describe('the class of a failure, in every command that shows why a run failed', () => {
  const failed = join(REPO_ROOT, 'corpus/official/failure-without-result.ndjson');
  const sentence =
    'ActionRequiredError: Named models unavailable Free plans can only use Auto. Upgrade your plan or remove --model to use Auto.';

  test('summary, render, validate and report name it', async () => {
    const report = join(scratch, 'failed.html');
    const [json, text, render, validate, page] = await Promise.all([
      runCli(['summary', '--json', failed]),
      runCli(['summary', failed]),
      runCli(['render', failed]),
      runCli(['validate', failed]),
      runCli(['report', failed, '-o', report]),
    ]);
    expect(JSON.parse(json.stdout).sessions[0].error).toEqual({
      message: sentence,
      code: 'model-unavailable',
      line: 5,
    });
    expect(text.stdout).toContain(`  error   ${sentence} (model-unavailable, line 5)\n`);
    expect(render.stdout).toContain(`✗ ${sentence} (model-unavailable, line 5)\n`);
    expect(validate.stdout).toContain('ends without a result (failure: model-unavailable)\n');
    // Exit 1: the log's plain-text lines are invalid lines, as for every command.
    expect(page.code).toBe(1);
    expect(readFileSync(report, 'utf8')).toContain(`${sentence} (model-unavailable)</p>`);
  });
});

describe('a capture kept as one JSON document', () => {
  const capture = join(CAPTURES, 'satelle__2026.10.01__16-plan.ndjson');
  const records = readFileSync(capture, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as unknown);

  test('pretty-printed or as an array, it reads as its lines: the same sessions, and no invalid line', async () => {
    const lines = join(scratch, 'lines.ndjson');
    const slurped = join(scratch, 'slurped.json');
    const pretty = join(scratch, 'pretty.json');
    writeFileSync(lines, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
    writeFileSync(slurped, `${JSON.stringify(records, null, 2)}\n`);
    writeFileSync(pretty, records.map((record) => JSON.stringify(record, null, 2)).join('\n'));
    const runs = await Promise.all(
      [lines, slurped, pretty].map((path) => runCli(['summary', '--json', path])),
    );
    const sessions = runs.map((run) => {
      expect([run.code, run.stderr]).toEqual([0, '']);
      const summary = JSON.parse(run.stdout);
      expect(summary.invalidLines).toEqual([]);
      return (summary.sessions as { sessionId: string; status: string; toolCalls: unknown[] }[]).map(
        ({ sessionId, status, toolCalls }) => ({ sessionId, status, calls: toolCalls.length }),
      );
    });
    expect(sessions[0]?.length).toBeGreaterThan(0);
    expect(sessions[1]).toEqual(sessions[0]);
    expect(sessions[2]).toEqual(sessions[0]);
    const validate = await runCli(['validate', slurped]);
    expect([validate.code, validate.stderr]).toEqual([0, '']);
  });

  test('records on one line keep each its own times: usage by day is the lines', async () => {
    const log = join(REPO_ROOT, 'corpus/official/session-cut-by-init.ndjson');
    const oneLine = join(scratch, 'one-line.json');
    const values = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as unknown);
    writeFileSync(oneLine, `${JSON.stringify(values)}\n`);
    const [fromLines, fromArray] = await Promise.all([
      runCli(['usage', '--json', log]),
      runCli(['usage', '--json', oneLine]),
    ]);
    expect(fromLines.code).toBe(0);
    expect(JSON.parse(fromArray.stdout).daily).toEqual(JSON.parse(fromLines.stdout).daily);
    expect(JSON.parse(fromLines.stdout).daily.length).toBeGreaterThan(1);
  });

  test('a document that wraps its records in an object of its own is one record, and no Cursor log', async () => {
    const wrapped = join(scratch, 'frames.json');
    writeFileSync(wrapped, `${JSON.stringify({ frames: records }, null, 2)}\n`);
    const run = await runCli(['summary', wrapped]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not a Cursor log');
    expect(run.stdout).toContain('0 sessions');
  });
});
