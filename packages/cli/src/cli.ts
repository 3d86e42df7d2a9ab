/**
 * The `cursor-stream` command line: runs one command and turns every way it can end into an exit code. The bin
 * script calls {@link main}; everything else here is loaded on demand.
 */

import { CommanderError } from 'commander';
import { cliError } from './io/cli-error.ts';
import { type CliIo, processIo, reportError } from './io/cli-io.ts';
import { EXIT_INTERNAL, EXIT_OK, EXIT_USAGE_OR_IO, type ExitCode } from './io/exit-codes.ts';
import { createProgram } from './program.ts';

export { allowYoungGenerationGrowth } from '@cursor-stream/node/young-generation';

/**
 * Runs the command line.
 *
 * @param argv - The arguments after the program name.
 * @param io - The streams to use; the process's own by default.
 * @returns The exit code: 0 success, 1 problems found in the input, 2 usage or I/O error, 70 a failure of the
 *   command's own (one line on stderr, no stack trace).
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<ExitCode> {
  if (argv.length === 0) {
    reportError(io, cliError('usage', 'missing command (see cursor-stream --help)'));
    return EXIT_USAGE_OR_IO;
  }
  let exitCode: ExitCode = EXIT_OK;
  const program = createProgram(
    io,
    (code) => {
      exitCode = code;
    },
    argv,
  );
  // Commander answers `help NOSUCH` with the whole help on stderr, which never names what was wrong.
  const [first, asked] = argv;
  if (
    first === 'help' &&
    asked !== undefined &&
    !program.commands.some((command) => command.name() === asked)
  ) {
    reportError(io, cliError('usage', `unknown command '${asked}'`));
    return EXIT_USAGE_OR_IO;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // --help and --version end through here too, with exit code 0; every other commander error is a usage error.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE_OR_IO;
    reportError(io, internalError(error));
    return EXIT_INTERNAL;
  }
  return exitCode;
}

/**
 * Says on the process's stderr, in one line, that the command failed by a fault of its own, for a failure no command
 * caught (thrown from a callback: the bin's `uncaughtException` and `unhandledRejection`).
 *
 * @returns The exit code of such failures, 70.
 */
export function reportInternalError(error: unknown): ExitCode {
  reportError(processIo(), internalError(error));
  return EXIT_INTERNAL;
}

/** The one line that says a command failed by a fault of its own. */
export function internalError(error: unknown): ReturnType<typeof cliError> {
  let what: string;
  try {
    what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    what = 'an unknown error';
  }
  return cliError(
    'internal',
    `internal error (${what.split('\n')[0]?.slice(0, 300)}); please report it with the command and its input`,
  );
}
