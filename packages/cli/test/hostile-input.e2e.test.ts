/**
 * Hostile input through the built CLI: nesting 10^5 deep in records of every dialect, and the record after a line
 * cut inside a string. Every command exits with its problems code, prints no stack trace, and reads the records
 * after the bad one.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startClickHouse, type TestClickHouse } from '../../export/test/clickhouse-server.ts';

const DEPTH = 100_000;
const arrays = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const objects = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;

const INIT = '{"type":"system","subtype":"init","session_id":"s1","model":"m"}';
const RESULT = '{"type":"result","subtype":"success","result":"done","session_id":"s1","is_error":false}';

/** A session of each dialect whose tool call is nested `nested` deep, followed by a record that must come through. */
const deepLogs: Record<string, string> = {
  'official arguments': [
    INIT,
    `{"type":"tool_call","subtype":"started","call_id":"c1","session_id":"s1","tool_call":{"shellToolCall":{"args":{"command":"ls","deep":${arrays}}}}}`,
    '{"type":"tool_call","subtype":"started","call_id":"c2","session_id":"s1","tool_call":{"shellToolCall":{"args":{"command":"after-the-deep-one"}}}}',
    RESULT,
  ].join('\n'),
  'official arguments text': [
    INIT,
    `{"type":"tool_call","subtype":"started","call_id":"c1","session_id":"s1","tool_call":{"function":{"name":"f","arguments":${JSON.stringify(`{"deep":${objects}}`)}}}}`,
    '{"type":"tool_call","subtype":"started","call_id":"c2","session_id":"s1","tool_call":{"shellToolCall":{"args":{"command":"after-the-deep-one"}}}}',
    RESULT,
  ].join('\n'),
  'python-wrapper parameters': [
    INIT,
    `{"type":"tool-call-started","tool_name":"Shell","tool_call_id":"c1","parameters":{"deep":${objects}}}`,
    '{"type":"tool-call-started","tool_name":"Shell","tool_call_id":"c2","parameters":{"command":"after-the-deep-one"}}',
    RESULT,
  ].join('\n'),
  'payload-envelope payload': [
    '{"type":"system","subtype":"init","payload":{"session_id":"s1","model":"m"}}',
    `{"type":"tool_call","subtype":"started","payload":{"toolCall":{"id":"c1","shellToolCall":{"args":{"deep":${arrays}}}}}}`,
    '{"type":"tool_call","subtype":"started","payload":{"toolCall":{"id":"c2","shellToolCall":{"args":{"command":"after-the-deep-one"}}}}}',
    '{"type":"result","subtype":"success","payload":{"result":"done"}}',
  ].join('\n'),
};

function expectNoCrash(run: { code: number | null; stderr: string; stdout: string }): void {
  expect(run.stderr).not.toMatch(/RangeError|Maximum call stack|\n\s+at /);
  expect(run.stdout).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  expect(run.code).toBe(1);
}

describe('nesting 10^5 deep', () => {
  for (const [name, log] of Object.entries(deepLogs)) {
    test(`${name}: every command reports too-deep at its line and reads on`, async () => {
      const input = `${log}\n`;
      const normalize = await runCli(['normalize', '-'], { input });
      expectNoCrash(normalize);
      const events = normalize.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; code?: string; loc?: { line: number } });
      expect(events).toContainEqual(
        expect.objectContaining({ code: 'too-deep', loc: expect.objectContaining({ line: 2 }) }),
      );
      expect(normalize.stdout).toContain('after-the-deep-one');

      const render = await runCli(['render', '-'], { input });
      expectNoCrash(render);
      expect(render.stdout).toContain('after-the-deep-one');

      const validate = await runCli(['validate', '-'], { input });
      expectNoCrash(validate);
      expect(validate.stdout).toMatch(/:2: too-deep: /);

      const summary = await runCli(['summary', '--json', '-'], { input });
      expectNoCrash(summary);
      expect(summary.stdout).toContain('"too-deep"');
    });
  }
});

let scratch = '';
let clickHouse: TestClickHouse | undefined;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-hostile-'));
  clickHouse = await startClickHouse();
  if (clickHouse === undefined)
    console.warn('clickhouse-server is not installed: skipping the ClickHouse exports');
});

afterAll(async () => {
  await clickHouse?.stop();
  await rm(scratch, { recursive: true, force: true });
});

/** A record 4,000 arrays deep (an 8 KB line) after a session's start, then a record that must come through. */
const DEEP_UNKNOWN_RECORD = [
  '{"type":"system","subtype":"init","session_id":"s","model":"m","timestamp_ms":1790000000000}',
  `{"type":"x","a":${'['.repeat(4000)}${']'.repeat(4000)}}`,
  `{"type":"assistant","session_id":"s","message":{"role":"assistant","content":[{"type":"text","text":"hi"}]},"a":${arrays}}`,
  '{"type":"tool_call","subtype":"started","call_id":"c2","session_id":"s","tool_call":{"shellToolCall":{"args":{"command":"after-the-deep-one"}}}}',
  '{"type":"result","subtype":"success","result":"done","session_id":"s","is_error":false,"usage":{"inputTokens":5}}',
  '',
].join('\n');

describe('records nested past the depth limit, in every command that reads records', () => {
  test('census and strict validation find them at their lines and read on', async () => {
    const census = await runCli(['census', '--json', '-'], { input: DEEP_UNKNOWN_RECORD });
    expectNoCrash(census);
    const document = JSON.parse(census.stdout) as { records: number; invalidLines: unknown[] };
    expect(document.records).toBe(5);
    expect(document.invalidLines).toEqual([
      { code: 'too-deep', count: 2, first: { path: '<stdin>', line: 2 } },
    ]);
    const text = await runCli(['census', '-'], { input: DEEP_UNKNOWN_RECORD });
    expectNoCrash(text);
    expect(text.stdout).toContain('invalid lines: too-deep 2, first at <stdin>:2');

    const strict = await runCli(['validate', '--strict', '-'], { input: DEEP_UNKNOWN_RECORD });
    expectNoCrash(strict);
    expect(strict.stdout).toMatch(/<stdin>:2: too-deep: /);
    expect(strict.stdout).toMatch(/<stdin>:3: too-deep: /);
  });

  test('report, usage and summary take the session around them whole', async () => {
    const page = join(scratch, 'deep.html');
    const report = await runCli(['report', '-o', page, '-'], { input: DEEP_UNKNOWN_RECORD });
    expectNoCrash(report);
    const html = await readFile(page, 'utf8');
    expect(html).toContain('after-the-deep-one');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);

    const usage = await runCli(['usage', '--json', '-'], { input: DEEP_UNKNOWN_RECORD });
    expectNoCrash(usage);
    expect(JSON.parse(usage.stdout)).toMatchObject({ totals: { inputTokens: 5, sessionCount: 1 } });

    const summary = await runCli(['summary', '-'], { input: DEEP_UNKNOWN_RECORD });
    expectNoCrash(summary);
    const render = await runCli(['render', '-'], { input: DEEP_UNKNOWN_RECORD });
    expectNoCrash(render);
    expect(render.stdout).toContain('after-the-deep-one');
    const normalize = await runCli(['normalize', '-'], { input: DEEP_UNKNOWN_RECORD });
    expectNoCrash(normalize);
    expect(normalize.stdout).toContain('after-the-deep-one');
  });

  test('every export format exports the log, the deep records as the invalid lines they are', async () => {
    const log = join(scratch, 'deep.ndjson');
    await writeFile(log, DEEP_UNKNOWN_RECORD);
    const duckdb = await runCli(['export', '--format', 'duckdb', '-o', join(scratch, 'deep.duckdb'), log]);
    expectNoCrash(duckdb);
    expect(duckdb.stderr).toContain('exported 1 logs, 1 sessions, 1 tool calls');
    const otlp = await runCli(['export', '--format', 'otlp', '--include-content', log]);
    expectNoCrash(otlp);
    expect(otlp.stdout).toContain('after-the-deep-one');
    if (clickHouse === undefined) return;
    const clickhouse = await runCli(['export', '--format', 'clickhouse', '--url', clickHouse.url, log]);
    expectNoCrash(clickhouse);
    expect(clickhouse.stderr).toContain('exported 1 logs, 1 sessions, 1 tool calls');
  });
});

describe('a line cut inside a string', () => {
  test('the tool call after it, with a raw line feed in its id, is still read by every command', async () => {
    const input = [
      INIT,
      '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"cut',
      '{"type":"tool_call","subtype":"started","call_id":"call_PFAupCWibROFKbdASSdiHCoi\nfc_0d2609f619ccdca8","session_id":"s1","tool_call":{"shellToolCall":{"args":{"command":"echo resynced"}}}}',
      RESULT,
      '',
    ].join('\n');
    const normalize = await runCli(['normalize', '-'], { input });
    expectNoCrash(normalize);
    expect(normalize.stdout).toContain('"toolCallId":"call_PFAupCWibROFKbdASSdiHCoi\\nfc_0d2609f619ccdca8"');
    expect(normalize.stdout).toContain('"code":"unterminated-string"');
    const render = await runCli(['render', '-'], { input });
    expect(render.stdout).toContain('echo resynced');
  });
});

describe('names every object inherits, as a tool, a tool kind or a field', () => {
  // An MCP server may name a tool anything: a name looked up in a table must find the table's own entries only.
  const NAMES = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
  const logs: Record<string, string> = {
    official: [
      INIT,
      ...NAMES.flatMap((name, index) => [
        `{"type":"tool_call","subtype":"started","call_id":"k${index}","session_id":"s1","tool_call":{"${name}ToolCall":{"args":{"a":1}}}}`,
        `{"type":"tool_call","subtype":"started","call_id":"m${index}","session_id":"s1","tool_call":{"mcpToolCall":{"args":{"name":"${name}","toolName":"${name}","providerIdentifier":"p","args":{}}}}}`,
        `{"type":"connection","subtype":"reconnecting","session_id":"s1","${name}":1}`,
      ]),
      RESULT,
    ].join('\n'),
    'python-wrapper': NAMES.map(
      (name, index) =>
        `{"type":"tool-call-started","tool_name":"${name}","tool_call_id":"c${index}","parameters":{"command":"ls"}}`,
    ).join('\n'),
    'cursor-sdk': [
      '{"type":"system","subtype":"init","agent_id":"a1","run_id":"r1","model":{"id":"composer-2"}}',
      ...NAMES.map(
        (name, index) =>
          `{"type":"tool_call","agent_id":"a1","run_id":"r1","call_id":"c${index}","name":"${name}","status":"completed","args":{"command":"ls"},"result":{"exitCode":0}}`,
      ),
      '{"type":"status","agent_id":"a1","run_id":"r1","status":"toString"}',
    ].join('\n'),
    acp: NAMES.map(
      (name, index) =>
        `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t${index}","title":"Edit","kind":"${name}","status":"pending","rawInput":{}}}}\n{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t${index}","status":"completed"}}}`,
    ).join('\n'),
  };

  const expectNoStack = (run: { stderr: string; stdout: string }) => {
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  };

  test.each(Object.keys(logs))('in a %s log, every command reads them as names', async (dialect) => {
    const input = `${logs[dialect]}\n`;
    for (const args of [
      ['render', '-'],
      ['summary', '--json', '-'],
      ['normalize', '-'],
      ['validate', '-'],
    ]) {
      const run = await runCli(args, { input });
      expectNoStack(run);
      expect(run.code, `${args[0]}: ${run.stderr}`).toBeLessThan(2);
    }
    const page = join(scratch, `inherited-${dialect}.html`);
    const report = await runCli(['report', '-', '-o', page], { input });
    expectNoStack(report);
    expect(await readFile(page, 'utf8')).toContain('</html>');
    const summary = await runCli(['summary', '--json', '-'], { input });
    const names = (
      JSON.parse(summary.stdout) as { sessions: { toolCalls: { toolName: unknown }[] }[] }
    ).sessions
      .flatMap((session) => session.toolCalls)
      .map((call) => call.toolName);
    expect(names.every((name) => typeof name === 'string')).toBe(true);
  });
});
