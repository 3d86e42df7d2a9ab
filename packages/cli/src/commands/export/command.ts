/**
 * `cursor-stream export`, as `--help` shows it: its choices, flags and list of formats all come from the export
 * targets' registry, so a new target needs nothing here. Its code (`run.ts`) is loaded only when it runs.
 */

import {
  EXPORT_FLAGS,
  EXPORT_TARGETS,
  type ExportFlagName,
  type ExportFlagValues,
  type ExportTargetName,
  targetsTaking,
} from '@cursor-stream/export/targets';
import { Option } from 'commander';
import {
  addReadingOptions,
  type CommandDeclaration,
  examplesHelp,
  type HelpExample,
  INPUT_HELP,
  REDACT_FLAGS,
  REDACT_HELP,
  type ReadingFlags,
  readingOptions,
} from '../../io/command-options.ts';
import type { ExportOptions } from './run.ts';

/** `a, b or c`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** A flag's help: each target's, in registry order, joined with "or". */
export function exportFlagHelp(flag: ExportFlagName): string {
  return targetsTaking(flag)
    .map((target) => target.flags[flag])
    .join(' or ');
}

/** The list of formats in `--help`: each target's lines, beside its name. */
export function exportFormatsHelp(): string {
  const width = Math.max(...EXPORT_TARGETS.map((target) => target.name.length)) + 2;
  return EXPORT_TARGETS.flatMap((target) =>
    target.help.map((line, index) => `  ${(index === 0 ? target.name : '').padEnd(width)}${line}`),
  ).join('\n');
}

const EXPORT_HELP = `
Formats:
${exportFormatsHelp()}
  Exporting a log again replaces its rows. Optional packages are named when missing.

Exit codes:
  0  success
  1  a log had invalid lines (they are exported as invalid-line events), or values that no column or span
     holds, changed or left out (each named on stderr with its file and line)
  2  usage error, a log that cannot be read, a missing optional package, or a failed export`;

/** The invocations `--help` shows; a test runs each on the repository's corpus. */
const EXAMPLES: readonly HelpExample[] = [
  {
    command: 'cursor-stream export --format otlp -o traces.jsonl corpus/official/',
    does: 'OpenTelemetry traces as OTLP JSON lines',
  },
  {
    command: 'cursor-stream export --format duckdb -o logs.duckdb corpus/official/',
    does: 'sessions, tool calls and events as DuckDB tables',
  },
];

/** Declares `export`. */
export const declareExport: CommandDeclaration<typeof import('./run.ts')> = (
  declared,
  { io, done },
  load,
) => {
  const labels = EXPORT_TARGETS.map((target) => target.label);
  const command = addReadingOptions(declared.summary(`export logs to ${listed(labels)}`))
    .description(
      'Export logs as OpenTelemetry traces (one invoke_agent span per session, one execute_tool span per tool call) or as the tables sessions, tool_calls and events in DuckDB or ClickHouse. Directories are searched for *.ndjson, *.jsonl, *.log and their .gz.',
    )
    .argument('<FILE...>', 'log files or directories, or - for standard input')
    .addOption(
      new Option('--format <format>', 'what to export to')
        .choices(EXPORT_TARGETS.map((target) => target.name))
        .makeOptionMandatory(),
    );
  const flagNames = Object.keys(EXPORT_FLAGS) as ExportFlagName[];
  for (const flag of flagNames) command.option(EXPORT_FLAGS[flag].spec, exportFlagHelp(flag));
  command
    .option(REDACT_FLAGS, REDACT_HELP)
    .addHelpText('after', `${INPUT_HELP}\n${EXPORT_HELP}\n${examplesHelp(EXAMPLES)}`)
    .action(
      async (
        files: string[],
        flags: ReadingFlags & ExportFlagValues & { format: ExportTargetName; redact?: true },
      ) => {
        const { runExport } = await load();
        const options: ExportOptions = {
          ...readingOptions(flags),
          format: flags.format,
          redact: flags.redact === true,
        };
        // Commander keys each flag's value by its long name, camel-cased: the key of EXPORT_FLAGS.
        for (const flag of flagNames)
          if (flags[flag] !== undefined) Object.assign(options, { [flag]: flags[flag] });
        done(await runExport(files, options, io));
      },
    );
};
