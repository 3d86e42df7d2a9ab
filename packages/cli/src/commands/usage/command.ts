/** `cursor-stream usage`, as `--help` shows it. Its code (`run.ts`) is loaded only when it runs. */

// The groupings alone, without the code that counts, which --help need not load.
import { USAGE_GROUPINGS, type UsageGrouping } from '@cursor-stream/inspect/usage-grouping';
import { Option } from 'commander';
import {
  addReadingOptions,
  type CommandDeclaration,
  INPUT_HELP,
  JOBS_HELP,
  jobsOption,
  type ReadingFlags,
  readingOptions,
} from '../../io/command-options.ts';

const MULTI_INPUT_EXIT_HELP = `
Exit codes:
  0  success
  1  a log had invalid lines (lines that are not records of any dialect), or values left out: a time no
     date can hold, a token count that is no whole number (each named on stderr with its file and line)
  2  usage error, or I/O error (a missing or unreadable log, an empty directory, an unwritable output)`;

/** Declares `usage`. */
export const declareUsage: CommandDeclaration<typeof import('./run.ts')> = (command, { io, done }, load) => {
  addReadingOptions(command.summary('token totals per day, session or model'))
    .description(
      "Sum the token usage each session's result reports (input, output, cache write, cache read, total) per UTC day of the session's first timestamp, per session or per model, with a grand total. Sessions without usage are counted apart, never estimated. Directories are searched for *.ndjson, *.jsonl, *.log and their .gz.",
    )
    .argument('<FILE...>', 'log files or directories, or - for standard input')
    .addOption(new Option('--by <group>', 'group sessions by').choices(USAGE_GROUPINGS).default('day'))
    .option('--json', 'print { daily | sessions | models: [...], totals } with ccusage field names')
    .addOption(jobsOption('worker threads a large file is read on', 1))
    .addHelpText('after', `${INPUT_HELP}\n${JOBS_HELP}\n${MULTI_INPUT_EXIT_HELP}`)
    .action(
      async (files: string[], flags: ReadingFlags & { by: UsageGrouping; json?: true; jobs: number }) => {
        const { runUsage } = await load();
        const options = {
          ...readingOptions(flags),
          by: flags.by,
          json: flags.json === true,
          jobs: flags.jobs,
        };
        done(await runUsage(files, options, io));
      },
    );
};
