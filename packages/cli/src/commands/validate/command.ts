/** `cursor-stream validate`, as `--help` shows it. Its code (`run.ts`) is loaded only when it runs. */

import {
  addReadingOptions,
  type CommandDeclaration,
  examplesHelp,
  type HelpExample,
  INPUT_HELP,
  JOBS_HELP,
  jobsOption,
  type ReadingFlags,
  readingOptions,
} from '../../io/command-options.ts';

const VALIDATE_EXIT_HELP = `
Exit codes:
  0  no problems (warnings do not count)
  1  problems: invalid lines, schema violations; with --strict also unknown fields,
     unknown event types and stream anomalies
  2  usage error, or I/O error (missing file, unreadable, not text, empty directory)`;

/** The invocations `--help` shows; a test runs each on the repository's corpus. */
const EXAMPLES: readonly HelpExample[] = [
  {
    command: 'cursor-stream validate corpus/official/',
    does: 'check every log of a directory; exit 1 when one has a problem',
  },
  {
    command: 'cursor-stream validate --json corpus/official/docs-example-zh.ndjson',
    does: 'one JSON document for CI: { ok, files }',
  },
  {
    command: 'cursor-stream validate --strict corpus/acp/',
    does: 'also report unknown fields, event types and stream anomalies',
  },
];

/** Declares `validate`. */
export const declareValidate: CommandDeclaration<typeof import('./run.ts')> = (
  command,
  { io, done },
  load,
) => {
  addReadingOptions(command.summary('check logs against the schemas and the stream rules'))
    .description(
      "Check every line of each log against its dialect's JSON Schema and the tokenizer's rules, and each stream for anomalies (a tool result without its call, calls still pending, no result, text differing from the result). Directories are searched for *.ndjson, *.jsonl, *.log and their .gz.",
    )
    .argument('<FILE...>', 'log files or directories, or - for standard input')
    .option('--strict', 'also report unknown fields, unknown event types and stream anomalies as problems')
    .option(
      '--json',
      'print one JSON document: { ok, files: [{ path, dialect, lines, events, problems, warnings }] }',
    )
    .addOption(jobsOption('worker threads: files validated at once, or the ranges of a single large file'))
    .addHelpText('after', `${INPUT_HELP}\n${JOBS_HELP}\n${VALIDATE_EXIT_HELP}\n${examplesHelp(EXAMPLES)}`)
    .action(async (files: string[], flags: ReadingFlags & { strict?: true; json?: true; jobs: number }) => {
      const { runValidate } = await load();
      const options = {
        ...readingOptions(flags),
        strict: flags.strict === true,
        json: flags.json === true,
        jobs: flags.jobs,
        // The CPU count by default is for several files at once; one file is split only when asked.
        splitOneFile: command.getOptionValueSource('jobs') === 'cli',
      };
      done(await runValidate(files, options, io));
    });
};
