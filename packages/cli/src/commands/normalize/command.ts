/** `cursor-stream normalize`, as `--help` shows it. Its code (`run.ts`) is loaded only when it runs. */

import {
  addReadingOptions,
  type CommandDeclaration,
  EXIT_HELP,
  INPUT_HELP,
  JOBS_HELP,
  jobsOption,
  REDACT_FLAGS,
  REDACT_HELP,
  type ReadingFlags,
  readingOptions,
} from '../../io/command-options.ts';

/** Declares `normalize`. */
export const declareNormalize: CommandDeclaration<typeof import('./run.ts')> = (
  command,
  { io, done },
  load,
) => {
  addReadingOptions(command.summary('print canonical events as NDJSON'))
    .description(
      'Print the canonical events of a log as NDJSON, one per line, each with its loc (line and byte offset).',
    )
    .argument('[FILE]', 'log file, or - for standard input', '-')
    .addOption(jobsOption('worker threads a large file is read on', 1))
    .option(REDACT_FLAGS, REDACT_HELP)
    .addHelpText('after', `${INPUT_HELP}\n${JOBS_HELP}\n${EXIT_HELP}`)
    .action(async (file: string, flags: ReadingFlags & { jobs: number; redact?: true }) => {
      const { runNormalize } = await load();
      const options = { ...readingOptions(flags), jobs: flags.jobs, redact: flags.redact === true };
      done(await runNormalize(file, options, io));
    });
};
