/**
 * What every command declaration shares: the reading options, their parsing into library options, the help texts
 * on input and exit codes, and the context an action runs in.
 */

import { availableParallelism } from 'node:os';
import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import type { CliIo } from './cli-io.ts';
import type { ExitCode } from './exit-codes.ts';
import {
  DIALECT_CHOICES,
  type DialectChoice,
  isOptionValueError,
  type OptionValueError,
  parseMaxRecordBytes,
  parsePositiveInteger,
} from './options.ts';

/** The options commander collects for every reading command. */
export interface ReadingFlags {
  dialect: DialectChoice;
  maxRecordBytes?: number;
}

/** Help text on what FILE may be. */
export const INPUT_HELP = `
Input:
  FILE is a log file, a directory (searched for *.ndjson, *.jsonl, *.log and
  their .gz, in name order), or - for standard input (the default when FILE is
  optional; it can be named once).
  Files ending in .gz, and input that starts like gzip, are decompressed on the fly.
  Memory stays bounded by the largest record, whatever the size of the log.`;

/** `[FILE...]` of a command that reads logs one after the other: standard input when none is given. */
export function optionalLogsArgument(): Argument {
  return new Argument('[FILE...]', 'log files or directories, or - for standard input').default(['-'], '-');
}

/** An invocation `--help` shows, and what it does. */
export interface HelpExample {
  /** The whole command line, from `cursor-stream`, runnable from the repository's root on its corpus. */
  readonly command: string;
  readonly does: string;
}

/** The `Examples:` section of a command's help: each command line, and under it what it does. */
export function examplesHelp(examples: readonly HelpExample[]): string {
  return `\nExamples:\n${examples.map(({ command, does }) => `  ${command}\n      ${does}\n`).join('')}`.trimEnd();
}

/** Help text on the exit codes of the reading commands. */
export const EXIT_HELP = `
Exit codes:
  0  success
  1  the input had invalid lines (lines that are not records of any dialect), or
     was another agent's log; one line on stderr says which and how many
  2  usage error, or I/O error (a missing or unreadable log, an empty directory,
     not text); the other logs are still read`;

/** Help text on the exit codes of the commands that add up what many logs hold (report, usage). */
export const MULTI_INPUT_EXIT_HELP = `
Exit codes:
  0  success
  1  a log had invalid lines (lines that are not records of any dialect), or values left out: a time no
     date can hold, a token count that is no whole number (each named on stderr with its file and line)
  2  usage error, or I/O error (a missing or unreadable log, an empty directory, an unwritable output)`;

/** Help text on reading a large file on several threads. */
export const JOBS_HELP = `
Large files:
  Given --jobs N (N > 1), a regular file of 128 MiB or more is read in ranges on
  N worker threads; standard input, pipes and .gz files on one. The output and
  the exit code are the same as with --jobs 1, but for a file that grows while
  read: it is read to its first size, and stderr says so (exit 1).
  CURSOR_STREAM_SPLIT_BYTES sets the
  size (e.g. 64m). One thread is the default: each worker starts and compiles
  the reader anew, which two threads win back only on files of some hundreds
  of MB, and they take about twice the memory.`;

/** `--jobs`: worker threads at most; one per CPU by default, or `defaultJobs`. */
export function jobsOption(description: string, defaultJobs?: number): Option {
  const option = new Option('--jobs <n>', description).argParser(optionParser(parsePositiveInteger));
  return defaultJobs === undefined
    ? option.default(availableParallelism(), 'the number of CPUs')
    : option.default(defaultJobs);
}

/** `--redact`, alike on every command that writes what logs hold. */
export const REDACT_FLAGS = '--redact';
/** What `--redact` does, as help says it. */
export const REDACT_HELP =
  'replace secrets (keys, tokens, environments, e-mail addresses, home directories) by placeholders; counts on stderr';

/** Adapts an options.ts parser to commander, which reports a thrown InvalidArgumentError as a usage error. */
export function optionParser(parse: (text: string) => number | OptionValueError): (text: string) => number {
  return (text) => {
    const value = parse(text);
    if (isOptionValueError(value)) throw new InvalidArgumentError(value.message);
    return value;
  };
}

/** Adds `--dialect` and `--max-record-bytes` to a command. */
export function addReadingOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--dialect <name>', 'the format of the log, or auto to detect it per stream')
        .choices(DIALECT_CHOICES)
        .default('auto'),
    )
    .addOption(
      new Option(
        '--max-record-bytes <n>',
        'largest record to hold; larger ones are reported as oversize (e.g. 64m; at most 256m)',
      ).argParser(optionParser(parseMaxRecordBytes)),
    );
}

/** The library options that the reading flags stand for. */
export function readingOptions(flags: ReadingFlags): { dialect: DialectChoice; maxRecordBytes?: number } {
  return flags.maxRecordBytes === undefined
    ? { dialect: flags.dialect }
    : { dialect: flags.dialect, maxRecordBytes: flags.maxRecordBytes };
}

/** What a command's action needs: the streams, and where to leave its exit code. */
export interface CommandContext {
  readonly io: CliIo;
  readonly done: (code: ExitCode) => void;
}

/**
 * A command's declaration: adds its description, arguments, options, help and action to `command` (already named
 * by the registry). The action loads the command's run module with `load` when it runs, so that `--help` does not.
 */
export type CommandDeclaration<RunModule> = (
  command: Command,
  context: CommandContext,
  load: () => Promise<RunModule>,
) => void;
