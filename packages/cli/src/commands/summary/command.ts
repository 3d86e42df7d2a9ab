/** `cursor-stream summary`, as `--help` shows it. Its code (`run.ts`) is loaded only when it runs. */

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
  type ReadingFlags,
  readingOptions,
} from '../../io/command-options.ts';

/** The invocations `--help` shows; a test runs each on the repository's corpus. */
const EXAMPLES: readonly HelpExample[] = [
  {
    command: 'cursor-stream summary corpus/official/docs-example-zh.ndjson',
    does: "one log's sessions at a glance",
  },
  {
    command: 'cursor-stream summary --json corpus/official/',
    does: 'one JSON document for every log of a directory',
  },
];

/** Declares `summary`. */
export const declareSummary: CommandDeclaration<typeof import('./run.ts')> = (
  command,
  { io, done },
  load,
) => {
  addReadingOptions(command.summary('summarize the sessions of logs'))
    .description(
      'Summarize each session of logs: status, model, assistant text, tool calls, event counts, duration and usage. Directories are searched for *.ndjson, *.jsonl, *.log and their .gz; the logs are read one after the other, and when there is more than one, each session and invalid line names its file.',
    )
    .addArgument(optionalLogsArgument())
    .addOption(jobsOption('worker threads a large file is read on', 1))
    .addHelpText('after', `${INPUT_HELP}\n${JOBS_HELP}\n${EXIT_HELP}\n${examplesHelp(EXAMPLES)}`)
    .option(
      '--json',
      'print { sessions, invalidLines, lines, bytes } as JSON; for several logs each session and invalid line has a file, and files counts the logs',
    )
    .action(async (files: string[], flags: ReadingFlags & { json?: true; jobs: number }) => {
      const { runSummary } = await load();
      const options = { ...readingOptions(flags), json: flags.json === true, jobs: flags.jobs };
      done(await runSummary(files, options, io));
    });
};
