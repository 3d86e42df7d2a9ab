/**
 * Hostile input through the built CLI: nesting 10^5 deep in records of every dialect, and the record after a line
 * cut inside a string. Every command exits with its problems code, prints no stack trace, and reads the records
 * after the bad one.
 */
import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.ts';

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
