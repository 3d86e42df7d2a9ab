/** `cursor-stream summary`, as `--help` shows it. Its code (`run.ts`) is loaded only when it runs. */

import {
  addReadingOptions,
  type CommandDeclaration,
  EXIT_HELP,
  INPUT_HELP,
  JOBS_HELP,
  jobsOption,
  type ReadingFlags,
  readingOptions,
} from '../../io/command-options.ts';

/** Declares `summary`. */
export const declareSummary: CommandDeclaration<typeof import('./run.ts')> = (
  command,
  { io, done },
  load,
) => {
  addReadingOptions(command.summary('summarize the sessions of a log'))
    .description(
      'Summarize each session of a log: status, model, assistant text, tool calls, event counts, duration and usage.',
    )
    .argument('[FILE]', 'log file, or - for standard input', '-')
    .option('--json', 'print { sessions, invalidLines, lines, bytes } as JSON')
    .addOption(jobsOption('worker threads a large file is read on', 1))
    .addHelpText('after', `${INPUT_HELP}\n${JOBS_HELP}\n${EXIT_HELP}`)
    .action(async (file: string, flags: ReadingFlags & { json?: true; jobs: number }) => {
      const { runSummary } = await load();
      const options = { ...readingOptions(flags), json: flags.json === true, jobs: flags.jobs };
      done(await runSummary(file, options, io));
    });
};
