/**
 * `cursor-stream bench`, as `--help` shows it. Its code (`run.ts`, the child runner and the rows) is loaded only
 * when it runs.
 */

import { Option } from 'commander';
import {
  addReadingOptions,
  type CommandDeclaration,
  EXIT_HELP,
  examplesHelp,
  type HelpExample,
  optionParser,
  type ReadingFlags,
  readingOptions,
} from '../../io/command-options.ts';
import { parsePositiveInteger } from '../../io/options.ts';

const BENCH_HELP = `
Rows:
  pipeline          read + tokenize + normalize to canonical events (what normalize does, without output)
  pipeline-reducer  the same + the session reducer (what summary does, without output)
  reference-loop    TextDecoder + String#indexOf + JSON.parse per line over the same bytes: the plain loop
                    people write; every ratio is taken against it
Each run is a fresh process; the median of --runs runs is reported with MB/s (1 MB = 10^6 B), events/s
(records/s for the reference loop), the ratio to the reference loop, and peak RSS. Gzipped logs are measured
on their decompressed bytes.`;

/** The invocations `--help` shows; a test runs each on the repository's corpus. */
const EXAMPLES: readonly HelpExample[] = [
  {
    command: 'cursor-stream bench corpus/official/docs-example-zh.ndjson',
    does: 'the pipeline against a plain loop on one log',
  },
  {
    command:
      'cursor-stream bench --runs 1 --json corpus/acp/cursor-agent-tools.ndjson corpus/official/docs-example-zh.ndjson',
    does: 'two logs measured once each, as JSON',
  },
];

/** Declares `bench`. */
export const declareBench: CommandDeclaration<typeof import('./run.ts')> = (command, { io, done }, load) => {
  addReadingOptions(command.summary('measure the pipeline on logs against a plain loop'))
    .description(
      'Measure throughput and memory of the pipeline on your own logs: for each file, the median of several runs of read + tokenize + normalize (and + the session reducer), each in a fresh process, against the reference loop on the same file.',
    )
    .argument('<FILE...>', 'log files (read several times, so not standard input)')
    .addOption(
      new Option('--runs <n>', 'runs per row and file; the median is reported')
        .argParser(optionParser(parsePositiveInteger))
        .default(5),
    )
    .option(
      '--json',
      'print { machine, runs, files: [{ path, bytes, rows: [{ name, mbPerSec, eventsPerSec, ratio, peakRssMb }] }] }',
    )
    .addHelpText('after', `${BENCH_HELP}\n${EXIT_HELP}\n${examplesHelp(EXAMPLES)}`)
    .action(async (files: string[], flags: ReadingFlags & { runs: number; json?: true }) => {
      const { runBench } = await load();
      const options = { ...readingOptions(flags), runs: flags.runs, json: flags.json === true };
      done(await runBench(files, options, io));
    });
};
