/** `cursor-stream usage`, as `--help` shows it. Its code (`run.ts`) is loaded only when it runs. */

// The groupings alone, without the code that counts, which --help need not load.
import {
  USAGE_GROUPINGS,
  USAGE_ORDERS,
  type UsageGrouping,
  type UsageOrder,
} from '@cursor-stream/inspect/usage-grouping';
import { Option } from 'commander';
import {
  addReadingOptions,
  type CommandDeclaration,
  examplesHelp,
  type HelpExample,
  INPUT_HELP,
  JOBS_HELP,
  jobsOption,
  MULTI_INPUT_EXIT_HELP,
  type ReadingFlags,
  readingOptions,
} from '../../io/command-options.ts';

/** The invocations `--help` shows; a test runs each on the repository's corpus. */
const EXAMPLES: readonly HelpExample[] = [
  { command: 'cursor-stream usage corpus/official/', does: 'tokens and cost per day' },
  { command: 'cursor-stream usage --by model --json corpus/', does: 'per model, with ccusage field names' },
  {
    command: 'cursor-stream usage --by week --since 2025-01-01 corpus/official/',
    does: 'per week, from a date on',
  },
];

/** Declares `usage`. */
export const declareUsage: CommandDeclaration<typeof import('./run.ts')> = (command, { io, done }, load) => {
  addReadingOptions(command.summary('tokens and cost per day, week, month, session or model'))
    .description(
      "Sum the token usage each session's result reports (input, output, cache write, cache read, total) and its cost at a price table's rates, per day, week (from Monday) or month of the session's first timestamp, per session or per model, each period with a row per model, and a grand total. Sessions without usage are counted apart, never estimated; a model the table lacks has an unknown cost, never 0. Colored on a terminal (NO_COLOR turns it off, FORCE_COLOR on). Directories are searched for *.ndjson, *.jsonl, *.log and their .gz.",
    )
    .argument('<FILE...>', 'log files or directories, or - for standard input')
    .addOption(new Option('--by <group>', 'group sessions by').choices(USAGE_GROUPINGS).default('day'))
    .option(
      '--since <time>',
      'leave out sessions that started before: 2026-05-01, 20260501 or 2026-05-01T09:30',
    )
    .option('--until <time>', 'leave out sessions that started after (a date alone includes its whole day)')
    .option('--timezone <zone>', "IANA time zone of periods and of --since/--until (default: the machine's)")
    .addOption(
      new Option(
        '--order <order>',
        "periods and models oldest or first first (asc), or last first (desc); sessions come in the logs' order",
      )
        .choices(USAGE_ORDERS)
        .default('asc'),
    )
    .option('--prices <file>', 'price table (JSON, in the format of the built-in one) to compute costs with')
    .option(
      '--json',
      'print { daily | weekly | monthly | sessions | models: [...], totals, timeZone } with ccusage field names',
    )
    .addOption(jobsOption('worker threads a large file is read on', 1))
    .addHelpText('after', `${INPUT_HELP}\n${JOBS_HELP}\n${MULTI_INPUT_EXIT_HELP}\n${examplesHelp(EXAMPLES)}`)
    .action(
      async (
        files: string[],
        flags: ReadingFlags & {
          by: UsageGrouping;
          order: UsageOrder;
          since?: string;
          until?: string;
          timezone?: string;
          prices?: string;
          json?: true;
          jobs: number;
        },
      ) => {
        const { runUsage } = await load();
        const { since, until, timezone, prices, order } = flags;
        const options = {
          ...readingOptions(flags),
          by: flags.by,
          json: flags.json === true,
          jobs: flags.jobs,
          order,
          ...(since === undefined ? {} : { since }),
          ...(until === undefined ? {} : { until }),
          ...(timezone === undefined ? {} : { timeZone: timezone }),
          ...(prices === undefined ? {} : { prices }),
        };
        done(await runUsage(files, options, io));
      },
    );
};
