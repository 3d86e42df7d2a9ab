/** `cursor-stream render`, as `--help` shows it. Its code (`run.ts`) is loaded only when it runs. */

import {
  addReadingOptions,
  type CommandDeclaration,
  EXIT_HELP,
  examplesHelp,
  type HelpExample,
  INPUT_HELP,
  optionalLogsArgument,
  REDACT_FLAGS,
  REDACT_HELP,
  type ReadingFlags,
  readingOptions,
} from '../../io/command-options.ts';

/** The invocations `--help` shows; a test runs each on the repository's corpus. */
const EXAMPLES: readonly HelpExample[] = [
  {
    command: 'cursor-stream render corpus/official/parallel-tools-out-of-order.ndjson',
    does: 'what the agent did, as a person reads it',
  },
  {
    command: 'cursor-stream render --verbose corpus/acp/',
    does: 'every log of a directory, a header per file, tool plumbing shown',
  },
];

/** Declares `render`. */
export const declareRender: CommandDeclaration<typeof import('./run.ts')> = (command, { io, done }, load) => {
  addReadingOptions(command.summary('print a readable transcript of logs'))
    .description(
      'Print a readable transcript: the prompt, reasoning folded to one line, assistant text, each tool call with its arguments, outcome and duration, and the final status. Colored on a terminal (NO_COLOR turns it off, FORCE_COLOR on). Directories are searched for *.ndjson, *.jsonl, *.log and their .gz; the logs are read one after the other, and when there is more than one, each transcript starts with a line naming its file (══ FILE).',
    )
    .addArgument(optionalLogsArgument())
    .option(
      '-f, --follow',
      'keep reading one file as it grows, until interrupted (Ctrl-C); a truncated file is read again from its start',
    )
    .option(
      '-v, --verbose',
      'also show the plumbing arguments of tool calls (call ids, parsed commands, ...)',
    )
    .option(REDACT_FLAGS, REDACT_HELP)
    .addHelpText('after', `${INPUT_HELP}\n${EXIT_HELP}\n${examplesHelp(EXAMPLES)}`)
    .action(
      async (files: string[], flags: ReadingFlags & { follow?: true; verbose?: true; redact?: true }) => {
        const { runRender } = await load();
        const options = {
          ...readingOptions(flags),
          follow: flags.follow === true,
          verbose: flags.verbose === true,
          redact: flags.redact === true,
        };
        done(await runRender(files, options, io));
      },
    );
};
