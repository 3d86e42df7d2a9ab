/**
 * The command line: the program's own options and help, and each command of the registry (`commands/index.ts`).
 * Each command's code is loaded only when that command runs, so that `--help`, `--version` and a command on a small
 * log start fast.
 */

import { readFileSync } from 'node:fs';
import { escapeControls } from '@cursor-stream/core/text';
import { Command } from 'commander';
import { COMMANDS } from './commands/index.ts';
import type { CliIo } from './io/cli-io.ts';
import { EXIT_HELP, INPUT_HELP } from './io/command-options.ts';
import type { ExitCode } from './io/exit-codes.ts';

function packageVersion(): string {
  // src/ and dist/ both sit one level below the package root.
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/**
 * Makes one `cursor-stream` command line.
 *
 * @param io - The streams the commands read and write.
 * @param done - Receives the exit code of the command that ran.
 * @param argv - The arguments it will parse: when they name a command, only that command is declared, as declaring
 *   them all is most of the set-up a command on a small log pays before it reads.
 */
export function createProgram(
  io: CliIo,
  done: (code: ExitCode) => void,
  argv: readonly string[] = [],
): Command {
  const program = new Command('cursor-stream')
    .description(
      "Read the NDJSON stream of Cursor's headless agent (cursor-agent --output-format stream-json) as canonical events.",
    )
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    // Settings above are inherited by the commands added below: usage errors throw instead of exiting 1.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`${oneLineUsageError(text)}\n`),
    })
    .addHelpText('after', `${INPUT_HELP}\n${EXIT_HELP}`);
  const named = argv[0] !== undefined && Object.hasOwn(COMMANDS, argv[0]) ? argv[0] : undefined;
  for (const [name, command] of Object.entries(COMMANDS))
    if (named === undefined || name === named) command.declare(program.command(name), { io, done });
  return program;
}

/**
 * Commander's error text on one line: `error: unknown option '--x'\n(Did you mean --y?)` becomes
 * `cursor-stream: unknown option '--x' (did you mean --y?)`. The text holds the user's argument, which may be long
 * and hold anything: the work is linear in its length (no backtracking pattern runs over it), and control and bidi
 * characters are escaped.
 */
export function oneLineUsageError(text: string): string {
  const oneLine = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
  const message = (
    oneLine.startsWith('error:') ? oneLine.slice('error:'.length).trimStart() : oneLine
  ).replace(' (Did you mean', ' (did you mean');
  return `cursor-stream: ${escapeControls(message)}`;
}
