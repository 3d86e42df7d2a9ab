import { agentArgs } from '@cursor-stream/node';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { promptProblem } from '../src/agent/agent-argv.ts';

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
    mode: fc.constantFrom('agent' as const, 'plan' as const, 'ask' as const),
  },
  { requiredKeys: [] },
);

describe('agentArgs', () => {
  test.prop([fc.string(), optionsArbitrary])(
    'with promptVia argv, ends with -- and the prompt, whatever the prompt and the options hold',
    (prompt, options) => {
      const args = agentArgs(prompt, { ...options, promptVia: 'argv' });
      expect(args.slice(-2)).toEqual(['--', prompt]);
      expect(args.slice(0, 3)).toEqual(['--print', '--output-format', 'stream-json']);
      expect(args.filter((arg) => arg === '-H')).toHaveLength(options.headers?.length ?? 0);
    },
  );

  test.prop([fc.string({ minLength: 1 }), optionsArbitrary])(
    'by default leaves the prompt out of the arguments: it goes to standard input',
    (prompt, options) => {
      const args = agentArgs(prompt, options);
      expect(args).not.toContain('--');
      expect(args.slice(0, 3)).toEqual(['--print', '--output-format', 'stream-json']);
    },
  );

  test('passes the mode as --mode, and asks for one JSON object for a one-shot query', () => {
    expect(agentArgs('p', { mode: 'plan' })).toEqual([
      '--print',
      '--output-format',
      'stream-json',
      '--mode',
      'plan',
    ]);
    expect(agentArgs('p', { mode: 'ask' }, 'json')).toEqual([
      '--print',
      '--output-format',
      'json',
      '--mode',
      'ask',
    ]);
  });
});

describe('promptProblem', () => {
  test('refuses a NUL character in an argument, which no process argument can carry', () => {
    expect(promptProblem('a\0b', 'argv')).toMatch(/NUL/);
  });

  test('refuses an argument that is exactly a subcommand name, and accepts one that only mentions it', () => {
    expect(promptProblem(' update ', 'argv')).toMatch(/subcommand/);
    expect(promptProblem('ls', 'argv')).toMatch(/subcommand/);
    expect(promptProblem('update the README', 'argv')).toBeUndefined();
    expect(promptProblem('-ls', 'argv')).toBeUndefined();
  });

  test('takes any text on standard input, the default, since no argument is parsed from it', () => {
    expect(promptProblem('update')).toBeUndefined();
    expect(promptProblem('a\0b', 'stdin')).toBeUndefined();
  });
});
