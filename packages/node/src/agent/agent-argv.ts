/**
 * The argv of a headless run. Arguments go to `spawn` as an array, never through a shell, so a prompt holding
 * quotes, `$(...)` or newlines is passed as it is.
 */

import type { RunAgentOptions } from './agent-options.ts';

/**
 * Names cursor-agent reads as a subcommand. Its parser (commander) dispatches a subcommand on the first operand even
 * after `--`, so a prompt that is exactly one of these would run that command (`update` would upgrade the CLI).
 */
const SUBCOMMAND_NAMES: ReadonlySet<string> = new Set([
  'agent',
  'create-chat',
  'help',
  'install-shell-integration',
  'login',
  'logout',
  'ls',
  'mcp',
  'resume',
  'status',
  'uninstall-shell-integration',
  'update',
  'upgrade',
  'whoami',
]);

/** Why a prompt cannot be passed as an argument, or `undefined` when it can (standard input takes any text). */
export function promptProblem(
  prompt: string,
  via: RunAgentOptions['promptVia'] = 'stdin',
): string | undefined {
  if (via !== 'argv') return undefined;
  if (prompt.includes('\0')) return 'The prompt holds a NUL character, which no process argument can carry.';
  if (SUBCOMMAND_NAMES.has(prompt.trim())) {
    return `The prompt "${prompt.trim()}" is a cursor-agent subcommand name, which the CLI would run instead.`;
  }
  return undefined;
}

function flag(args: string[], name: string, on: boolean | undefined): void {
  if (on === true) args.push(name);
}

function valued(args: string[], name: string, value: string | undefined): void {
  if (value !== undefined) args.push(name, value);
}

/** What the CLI prints: the event stream, or one JSON object with the result (a one-shot {@link query}). */
export type OutputFormat = 'stream-json' | 'json';

/**
 * The arguments of `cursor-agent --print --output-format stream-json ...`. The prompt is not among them unless
 * `promptVia` is `'argv'`; then it comes last, after `--`, so a prompt beginning with `-` is not read as a flag.
 */
export function agentArgs(
  prompt: string,
  options: RunAgentOptions = {},
  outputFormat: OutputFormat = 'stream-json',
): string[] {
  const args = ['--print', '--output-format', outputFormat];
  flag(args, '--stream-partial-output', options.streamPartialOutput);
  flag(args, '--trust', options.trust);
  flag(args, '--force', options.force);
  flag(args, '--approve-mcps', options.approveMcps);
  valued(args, '--model', options.model);
  valued(args, '--workspace', options.workspace);
  valued(args, '--resume', options.resume);
  valued(args, '--mode', options.mode);
  for (const header of options.headers ?? []) args.push('-H', header);
  args.push(...(options.extraArgs ?? []));
  if (options.promptVia === 'argv') args.push('--', prompt);
  return args;
}
