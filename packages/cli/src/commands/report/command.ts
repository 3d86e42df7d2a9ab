/** `cursor-stream report`, as `--help` shows it. Its code (`run.ts`) is loaded only when it runs. */

import {
  addReadingOptions,
  type CommandDeclaration,
  examplesHelp,
  type HelpExample,
  INPUT_HELP,
  MULTI_INPUT_EXIT_HELP,
  REDACT_FLAGS,
  REDACT_HELP,
  type ReadingFlags,
  readingOptions,
} from '../../io/command-options.ts';

/** The invocations `--help` shows; a test runs each on the repository's corpus. */
const EXAMPLES: readonly HelpExample[] = [
  {
    command: 'cursor-stream report -o report.html corpus/official/',
    does: 'one self-contained page of every session of a directory',
  },
  {
    command: 'cursor-stream report --redact -o - corpus/official/docs-example-zh.ndjson',
    does: 'the page of one log on standard output, secrets replaced',
  },
];

/** Declares `report`. */
export const declareReport: CommandDeclaration<typeof import('./run.ts')> = (command, { io, done }, load) => {
  addReadingOptions(command.summary('write a self-contained HTML report of logs'))
    .description(
      'Write one HTML page, with no outside resource, showing each session: status, model, duration, tokens, why it failed, a timeline of its reasoning, model turns and tool calls, and its transcript with tool arguments and outputs. Several sessions get a sortable index. Large outputs are cut with their size shown, so the page stays bounded whatever the size of the logs. Directories are searched for *.ndjson, *.jsonl, *.log and their .gz.',
    )
    .argument('<FILE...>', 'log files or directories, or - for standard input')
    .requiredOption('-o, --output <file>', 'where to write the page (- for standard output)')
    .option(REDACT_FLAGS, REDACT_HELP)
    .addHelpText('after', `${INPUT_HELP}\n${MULTI_INPUT_EXIT_HELP}\n${examplesHelp(EXAMPLES)}`)
    .action(async (files: string[], flags: ReadingFlags & { output: string; redact?: true }) => {
      const { runReport } = await load();
      const options = { ...readingOptions(flags), output: flags.output, redact: flags.redact === true };
      done(await runReport(files, options, io));
    });
};
