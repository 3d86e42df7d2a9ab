/** `cursor-stream normalize`, as `--help` shows it. Its code (`run.ts`) is loaded only when it runs. */

import {
  addReadingOptions,
  type CommandDeclaration,
  EXIT_HELP,
  examplesHelp,
  type HelpExample,
  INPUT_HELP,
  JOBS_HELP,
  jobsOption,
  optionalLogsArgument,
  REDACT_FLAGS,
  REDACT_HELP,
  type ReadingFlags,
  readingOptions,
} from '../../io/command-options.ts';

/** The invocations `--help` shows; a test runs each on the repository's corpus. */
const EXAMPLES: readonly HelpExample[] = [
  {
    command: 'cursor-stream normalize corpus/official/docs-example-zh.ndjson',
    does: "one log's canonical events, one JSON line each",
  },
  {
    command: 'cursor-stream normalize corpus/acp/',
    does: 'every log of a directory, each line naming its file first',
  },
  {
    command: 'cursor-stream normalize --redact corpus/official/parallel-tools-out-of-order.ndjson',
    does: 'the same with secrets replaced, and how many on stderr',
  },
];

/** Declares `normalize`. */
export const declareNormalize: CommandDeclaration<typeof import('./run.ts')> = (
  command,
  { io, done },
  load,
) => {
  addReadingOptions(command.summary('print canonical events as NDJSON'))
    .description(
      'Print the canonical events of logs as NDJSON, one per line, each with its loc (line and byte offset). Directories are searched for *.ndjson, *.jsonl, *.log and their .gz; the logs are read one after the other, and when there is more than one, each line starts with a "file" field naming its log ({"file":"a.ndjson","type":...}), so that a line still reads on its own (grep, jq) and the rest of it is the event as one log gives it.',
    )
    .addArgument(optionalLogsArgument())
    .addOption(jobsOption('worker threads a large file is read on', 1))
    .option(REDACT_FLAGS, REDACT_HELP)
    .addHelpText('after', `${INPUT_HELP}\n${JOBS_HELP}\n${EXIT_HELP}\n${examplesHelp(EXAMPLES)}`)
    .action(async (files: string[], flags: ReadingFlags & { jobs: number; redact?: true }) => {
      const { runNormalize } = await load();
      const options = { ...readingOptions(flags), jobs: flags.jobs, redact: flags.redact === true };
      done(await runNormalize(files, options, io));
    });
};
