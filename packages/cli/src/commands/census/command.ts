/** `cursor-stream census`, as `--help` shows it. Its code (`run.ts`) is loaded only when it runs. */

import {
  addReadingOptions,
  type CommandDeclaration,
  examplesHelp,
  type HelpExample,
  INPUT_HELP,
  type ReadingFlags,
  readingOptions,
} from '../../io/command-options.ts';

const CENSUS_EXIT_HELP = `
Exit codes:
  0  the schemas know every field and value, and every record type is modelled
  1  something is unknown: a field, an enumerated value, a record type the canonical events do not model,
     a schema violation, or a line that is not a record
  2  usage error, or I/O error (missing file, unreadable, not text, empty directory)`;

/** The invocations `--help` shows; a test runs each on the repository's corpus. */
const EXAMPLES: readonly HelpExample[] = [
  {
    command: 'cursor-stream census corpus/',
    does: 'what the schemas and the model do not know, over every log of a folder tree',
  },
  { command: 'cursor-stream census --json corpus/official/', does: 'the same as one JSON document' },
];

/** Declares `census`. */
export const declareCensus: CommandDeclaration<typeof import('./run.ts')> = (command, { io, done }, load) => {
  addReadingOptions(command.summary('list what the schemas do not know about logs, per record type'))
    .description(
      'Count the records of logs per dialect, type and subtype, and list the fields and enumerated values their JSON Schemas do not know and the record types the canonical events do not model, each with how often and where it first appears. Directories are searched for *.ndjson, *.jsonl, *.log and their .gz.',
    )
    .argument('<FILE...>', 'log files or directories, or - for standard input')
    .option('--json', 'print one JSON document: { files, records, rows, invalidLines, unreadable, ... }')
    .addHelpText('after', `${INPUT_HELP}\n${CENSUS_EXIT_HELP}\n${examplesHelp(EXAMPLES)}`)
    .action(async (files: string[], flags: ReadingFlags & { json?: true }) => {
      const { runCensus } = await load();
      done(await runCensus(files, { ...readingOptions(flags), json: flags.json === true }, io));
    });
};
