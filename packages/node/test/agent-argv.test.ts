import { agentArgs } from '@cursor-stream/node';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { promptProblem } from '../src/agent-argv.ts';

const optionsArbitrary = fc.record(
  {
    workspace: fc.string(),
    model: fc.string(),
    force: fc.boolean(),
    approveMcps: fc.boolean(),
    trust: fc.boolean(),
    headers: fc.array(fc.string(), { maxLength: 3 }),
    resume: fc.string(),
    streamPartialOutput: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('agentArgs', () => {
  test.prop([fc.string(), optionsArbitrary])(
    'ends with -- and the prompt, whatever the prompt and the options hold',
    (prompt, options) => {
      const args = agentArgs(prompt, options);
      expect(args.slice(-2)).toEqual(['--', prompt]);
      expect(args.slice(0, 3)).toEqual(['--print', '--output-format', 'stream-json']);
      expect(args.filter((arg) => arg === '-H')).toHaveLength(options.headers?.length ?? 0);
    },
  );
});

describe('promptProblem', () => {
  test('refuses a NUL character, which no process argument can carry', () => {
    expect(promptProblem('a\0b')).toMatch(/NUL/);
  });

  test('refuses a prompt that is exactly a subcommand name, and accepts one that only mentions it', () => {
    expect(promptProblem(' update ')).toMatch(/subcommand/);
    expect(promptProblem('ls')).toMatch(/subcommand/);
    expect(promptProblem('update the README')).toBeUndefined();
    expect(promptProblem('-ls')).toBeUndefined();
  });
});
