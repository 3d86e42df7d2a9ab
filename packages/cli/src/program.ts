/**
 * The command line: commands, arguments, options and help, declared with commander. Each command's code is loaded
 * only when that command runs, so that `--help`, `--version` and a command on a small log start fast.
 */

import { readFileSync } from 'node:fs';
import { escapeControls } from '@cursor-stream/core/text';
// The groupings alone, without the code that counts, which --help need not load.
import {
  USAGE_GROUPINGS,
  USAGE_ORDERS,
  type UsageGrouping,
  type UsageOrder,
} from '@cursor-stream/inspect/usage-grouping';
import { Command, Option } from 'commander';
import { addBench } from './bench-command.ts';
import type { CliIo } from './cli-io.ts';
import {
  addReadingOptions,
  type CommandContext,
  EXIT_HELP,
  INPUT_HELP,
  JOBS_HELP,
  jobsOption,
  type ReadingFlags,
  readingOptions,
} from './command-options.ts';
import type { ExportOptions } from './commands/export.ts';
import type { ExitCode } from './exit-codes.ts';
import { EXPORT_FORMATS, type ExportFormat } from './export-formats.ts';
import { addServe } from './serve-command.ts';

const VALIDATE_EXIT_HELP = `
Exit codes:
  0  no problems (warnings do not count)
  1  problems: invalid lines, schema violations; with --strict also unknown fields,
     unknown event types and stream anomalies
  2  usage error, or I/O error (missing file, unreadable, not text, empty directory)`;

function packageVersion(): string {
  // src/ and dist/ both sit one level below the package root.
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

function addNormalize(program: Command, { io, done }: CommandContext): void {
  addReadingOptions(program.command('normalize').summary('print canonical events as NDJSON'))
    .description(
      'Print the canonical events of a log as NDJSON, one per line, each with its loc (line and byte offset).',
    )
    .argument('[FILE]', 'log file, or - for standard input', '-')
    .addOption(jobsOption('worker threads a large file is read on', 1))
    .option(
      '--redact',
      'replace secrets (keys, tokens, environments, e-mail addresses, home directories) by placeholders; counts on stderr',
    )
    .addHelpText('after', `${INPUT_HELP}\n${JOBS_HELP}\n${EXIT_HELP}`)
    .action(async (file: string, flags: ReadingFlags & { jobs: number; redact?: true }) => {
      const { runNormalize } = await import('./commands/normalize.ts');
      const options = { ...readingOptions(flags), jobs: flags.jobs, redact: flags.redact === true };
      done(await runNormalize(file, options, io));
    });
}

function addValidate(program: Command, { io, done }: CommandContext): void {
  addReadingOptions(
    program.command('validate').summary('check logs against the schemas and the stream rules'),
  )
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
    .addHelpText('after', `${INPUT_HELP}\n${JOBS_HELP}\n${VALIDATE_EXIT_HELP}`)
    .action(
      async (
        files: string[],
        flags: ReadingFlags & { strict?: true; json?: true; jobs: number },
        command: Command,
      ) => {
        const { runValidate } = await import('./commands/validate.ts');
        const options = {
          ...readingOptions(flags),
          strict: flags.strict === true,
          json: flags.json === true,
          jobs: flags.jobs,
          // The CPU count by default is for several files at once; one file is split only when asked.
          splitOneFile: command.getOptionValueSource('jobs') === 'cli',
        };
        done(await runValidate(files, options, io));
      },
    );
}

function addSummary(program: Command, { io, done }: CommandContext): void {
  addReadingOptions(program.command('summary').summary('summarize the sessions of a log'))
    .description(
      'Summarize each session of a log: status, model, assistant text, tool calls, event counts, duration and usage.',
    )
    .argument('[FILE]', 'log file, or - for standard input', '-')
    .option('--json', 'print { sessions, invalidLines, lines, bytes } as JSON')
    .addOption(jobsOption('worker threads a large file is read on', 1))
    .addHelpText('after', `${INPUT_HELP}\n${JOBS_HELP}\n${EXIT_HELP}`)
    .action(async (file: string, flags: ReadingFlags & { json?: true; jobs: number }) => {
      const { runSummary } = await import('./commands/summary.ts');
      const options = { ...readingOptions(flags), json: flags.json === true, jobs: flags.jobs };
      done(await runSummary(file, options, io));
    });
}

function addRender(program: Command, { io, done }: CommandContext): void {
  addReadingOptions(program.command('render').summary('print a readable transcript of a log'))
    .description(
      'Print a readable transcript: the prompt, reasoning folded to one line, assistant text, each tool call with its arguments, outcome and duration, and the final status. Colored on a terminal (NO_COLOR turns it off, FORCE_COLOR on).',
    )
    .argument('[FILE]', 'log file, or - for standard input', '-')
    .option(
      '-f, --follow',
      'keep reading as the file grows, until interrupted (Ctrl-C); a truncated file is read again from its start',
    )
    .option(
      '-v, --verbose',
      'also show the plumbing arguments of tool calls (call ids, parsed commands, ...)',
    )
    .option(
      '--redact',
      'replace secrets (keys, tokens, environments, e-mail addresses, home directories) by placeholders; counts on stderr',
    )
    .addHelpText('after', `${INPUT_HELP}\n${EXIT_HELP}`)
    .action(async (file: string, flags: ReadingFlags & { follow?: true; verbose?: true; redact?: true }) => {
      const { runRender } = await import('./commands/render.ts');
      const options = {
        ...readingOptions(flags),
        follow: flags.follow === true,
        verbose: flags.verbose === true,
        redact: flags.redact === true,
      };
      done(await runRender(file, options, io));
    });
}

const EXPORT_HELP = `
Formats:
  otlp        OpenTelemetry traces (GenAI semantic conventions): OTLP JSON lines to -o FILE
              (default: standard output), or OTLP/HTTP to --endpoint URL
  duckdb      the tables sessions, tool_calls and events in the DuckDB file -o FILE
  clickhouse  the same tables through ClickHouse's HTTP interface at --url URL
              (credentials from CLICKHOUSE_USER and CLICKHOUSE_PASSWORD)
  Exporting a log again replaces its rows. Optional packages are named when missing.

Exit codes:
  0  success
  1  a log had invalid lines (they are exported as invalid-line events), or values that no column or span
     holds, changed or left out (each named on stderr with its file and line)
  2  usage error, a log that cannot be read, a missing optional package, or a failed export`;

function addExport(program: Command, { io, done }: CommandContext): void {
  addReadingOptions(program.command('export').summary('export logs to OpenTelemetry, DuckDB or ClickHouse'))
    .description(
      'Export logs as OpenTelemetry traces (one invoke_agent span per session, one execute_tool span per tool call) or as the tables sessions, tool_calls and events in DuckDB or ClickHouse. Directories are searched for *.ndjson, *.jsonl, *.log and their .gz.',
    )
    .argument('<FILE...>', 'log files or directories, or - for standard input')
    .addOption(
      new Option('--format <format>', 'what to export to').choices(EXPORT_FORMATS).makeOptionMandatory(),
    )
    .option('-o, --output <file>', 'the OTLP JSON lines file (- for standard output) or the DuckDB file')
    .option('--endpoint <url>', 'send OTLP/HTTP to this traces URL (e.g. http://127.0.0.1:4318/v1/traces)')
    .option('--url <url>', "ClickHouse's HTTP interface (e.g. http://127.0.0.1:8123/)")
    .option('--include-content', 'put tool arguments and results in the traces (they may hold secrets)')
    .option(
      '--redact',
      'replace secrets (keys, tokens, environments, e-mail addresses, home directories) by placeholders; counts on stderr',
    )
    .addHelpText('after', `${INPUT_HELP}\n${EXPORT_HELP}`)
    .action(
      async (
        files: string[],
        flags: ReadingFlags & {
          format: ExportFormat;
          output?: string;
          endpoint?: string;
          url?: string;
          includeContent?: true;
          redact?: true;
        },
      ) => {
        const { runExport } = await import('./commands/export.ts');
        const options: ExportOptions = {
          ...readingOptions(flags),
          format: flags.format,
          includeContent: flags.includeContent === true,
          redact: flags.redact === true,
        };
        if (flags.output !== undefined) options.output = flags.output;
        if (flags.endpoint !== undefined) options.endpoint = flags.endpoint;
        if (flags.url !== undefined) options.url = flags.url;
        done(await runExport(files, options, io));
      },
    );
}

const CENSUS_EXIT_HELP = `
Exit codes:
  0  the schemas know every field and value, and every record type is modelled
  1  something is unknown: a field, an enumerated value, a record type the canonical events do not model,
     a schema violation, or a line that is not a record
  2  usage error, or I/O error (missing file, unreadable, not text, empty directory)`;

function addCensus(program: Command, { io, done }: CommandContext): void {
  addReadingOptions(
    program.command('census').summary('list what the schemas do not know about logs, per record type'),
  )
    .description(
      'Count the records of logs per dialect, type and subtype, and list the fields and enumerated values their JSON Schemas do not know and the record types the canonical events do not model, each with how often and where it first appears. Directories are searched for *.ndjson, *.jsonl, *.log and their .gz.',
    )
    .argument('<FILE...>', 'log files or directories, or - for standard input')
    .option('--json', 'print one JSON document: { files, records, rows, invalidLines, unreadable, ... }')
    .addHelpText('after', `${INPUT_HELP}\n${CENSUS_EXIT_HELP}`)
    .action(async (files: string[], flags: ReadingFlags & { json?: true }) => {
      const { runCensus } = await import('./commands/census.ts');
      done(await runCensus(files, { ...readingOptions(flags), json: flags.json === true }, io));
    });
}

const MULTI_INPUT_EXIT_HELP = `
Exit codes:
  0  success
  1  a log had invalid lines (lines that are not records of any dialect), or values left out: a time no
     date can hold, a token count that is no whole number (each named on stderr with its file and line)
  2  usage error, or I/O error (a missing or unreadable log, an empty directory, an unwritable output)`;

function addUsage(program: Command, { io, done }: CommandContext): void {
  addReadingOptions(
    program.command('usage').summary('tokens and cost per day, week, month, session or model'),
  )
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
    .addHelpText('after', `${INPUT_HELP}\n${JOBS_HELP}\n${MULTI_INPUT_EXIT_HELP}`)
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
        const { runUsage } = await import('./commands/usage.ts');
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
}

function addReport(program: Command, { io, done }: CommandContext): void {
  addReadingOptions(program.command('report').summary('write a self-contained HTML report of logs'))
    .description(
      'Write one HTML page, with no outside resource, showing each session: status, model, duration, tokens, why it failed, a timeline of its reasoning, model turns and tool calls, and its transcript with tool arguments and outputs. Several sessions get a sortable index. Large outputs are cut with their size shown, so the page stays bounded whatever the size of the logs. Directories are searched for *.ndjson, *.jsonl, *.log and their .gz.',
    )
    .argument('<FILE...>', 'log files or directories, or - for standard input')
    .requiredOption('-o, --output <file>', 'where to write the page (- for standard output)')
    .option(
      '--redact',
      'replace secrets (keys, tokens, environments, e-mail addresses, home directories) by placeholders; counts on stderr',
    )
    .addHelpText('after', `${INPUT_HELP}\n${MULTI_INPUT_EXIT_HELP}`)
    .action(async (files: string[], flags: ReadingFlags & { output: string; redact?: true }) => {
      const { runReport } = await import('./commands/report.ts');
      const options = { ...readingOptions(flags), output: flags.output, redact: flags.redact === true };
      done(await runReport(files, options, io));
    });
}

/**
 * The commands, in the order `--help` lists them. Each declares its arguments and options here and loads its code
 * (`commands/<name>.ts`) only when it runs; a new command is one more such function.
 */
const COMMANDS = [
  addNormalize,
  addValidate,
  addSummary,
  addRender,
  addCensus,
  addReport,
  addUsage,
  addExport,
  addServe,
  addBench,
] as const;

/**
 * Makes one `cursor-stream` command line.
 *
 * @param io - The streams the commands read and write.
 * @param done - Receives the exit code of the command that ran.
 */
export function createProgram(io: CliIo, done: (code: ExitCode) => void): Command {
  const program = new Command('cursor-stream')
    .description(
      "Read the NDJSON stream of Cursor's headless agent (cursor-agent --output-format stream-json) as canonical events.",
    )
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    // Settings above are inherited by the commands added below: usage errors throw instead of exiting 1.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`${oneLineUsageError(text)}\n`),
    })
    .addHelpText('after', `${INPUT_HELP}\n${EXIT_HELP}`);
  for (const add of COMMANDS) add(program, { io, done });
  return program;
}

/**
 * Commander's error text on one line: `error: unknown option '--x'\n(Did you mean --y?)` becomes
 * `cursor-stream: unknown option '--x' (did you mean --y?)`. The text holds the user's argument, which may be long
 * and hold anything: the work is linear in its length (no backtracking pattern runs over it), and control and bidi
 * characters are escaped.
 */
export function oneLineUsageError(text: string): string {
  const oneLine = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
  const message = (
    oneLine.startsWith('error:') ? oneLine.slice('error:'.length).trimStart() : oneLine
  ).replace(' (Did you mean', ' (did you mean');
  return `cursor-stream: ${escapeControls(message)}`;
}
