/** `cursor-stream render`: a readable transcript of logs, one after the other, or of one log live with `--follow`. */

import { displayPath } from '@cursor-stream/core/text';
import { createPalette, type Palette, shouldUseColor } from '@cursor-stream/inspect/terminal';
import { createTranscript, transcriptFileHeader } from '@cursor-stream/inspect/transcript';
import {
  expandLogPaths,
  hasGzipExtension,
  type LogEntry,
  type LogResult,
  type LogStats,
  type ReadLogOptions,
  readEachLog,
  readLog,
} from '@cursor-stream/node/logs';
import { type CliError, cliError } from '../../io/cli-error.ts';
import {
  type CliIo,
  foreignLogsOf,
  logsExitCode,
  progressFor,
  refusesStdinTwice,
  reportError,
  writeText,
} from '../../io/cli-io.ts';
import { EXIT_USAGE_OR_IO, type ExitCode } from '../../io/exit-codes.ts';
import type { InputOptions } from '../../io/options.ts';
import { startRedaction } from '../../io/redaction.ts';
import { interruptSignal } from '../../io/signals.ts';

/** Options of `render`. */
export interface RenderOptions extends InputOptions {
  /** Keep reading as the file grows, until interrupted. */
  follow: boolean;
  /** Also show the plumbing arguments of tool calls. */
  verbose?: boolean;
  /** Replace secrets by placeholders. */
  redact?: boolean;
}

/** What `render` makes of invalid lines, said when they make it exit 1. */
const RENDER_INVALID_LINES = 'shown in the transcript where they occur';

/** Why `--follow` cannot tail what the arguments name, or `undefined` when they name one plain file. */
function followProblem(entries: readonly LogEntry[]): CliError | undefined {
  const [only] = entries;
  if (entries.length !== 1 || only === undefined)
    return cliError('usage', `--follow tails one plain file, not ${entries.length} logs`);
  if (only.path === '-' || hasGzipExtension(only.path))
    return cliError(
      'usage',
      '--follow needs a plain file (standard input and gzip files cannot be tailed)',
      only.path,
    );
  return undefined;
}

/**
 * Reads one log, writing its transcript as the events come, under a header when it is one of several. A log left
 * out as another agent's leaves no trace: its header waits for its first events, or for the end of a log kept.
 */
async function renderLog(
  path: string,
  header: boolean,
  palette: Palette,
  options: Omit<ReadLogOptions, 'onEvents'> & { verbose: boolean },
  io: CliIo,
): Promise<LogResult<LogStats>> {
  let headerDue = header;
  const write = async (text: string): Promise<void> => {
    if (headerDue) {
      headerDue = false;
      await writeText(io.stdout, transcriptFileHeader(displayPath(path), palette));
    }
    await writeText(io.stdout, text);
  };
  const transcript = createTranscript(palette, { verbose: options.verbose });
  const result = await readLog(path, {
    ...options,
    onEvents: (events) => write(events.map((event) => transcript.push(event)).join('')),
  });
  if (!result.ok || !result.value.leftOut) await write(transcript.end());
  return result;
}

/**
 * Runs `render` on logs and directories of logs, one after the other; with `--follow`, on one plain file.
 *
 * @returns 0, 1 when a log had invalid lines or problems after its readable part, 2 when an argument could not be
 *   read.
 */
export async function runRender(
  paths: readonly string[],
  options: RenderOptions,
  io: CliIo,
): Promise<ExitCode> {
  if (refusesStdinTwice(paths, io)) return EXIT_USAGE_OR_IO;
  const entries = await expandLogPaths(paths, { sizes: false });
  const usageProblem = options.follow ? followProblem(entries) : undefined;
  if (usageProblem !== undefined) {
    reportError(io, usageProblem);
    return EXIT_USAGE_OR_IO;
  }
  const palette = createPalette(shouldUseColor({ isTTY: io.stdout.isTTY, env: io.env }));
  const redaction = await startRedaction(options.redact, io);
  const interrupt = options.follow ? interruptSignal() : undefined;
  try {
    const { follow: _follow, verbose, redact: _redact, ...inputOptions } = options;
    const readOptions = {
      ...inputOptions,
      verbose: verbose === true,
      redactor: redaction.redactor,
      stdin: io.stdin,
      progress: progressFor(io, true),
    };
    const several = entries.length > 1;
    const outcome = await readEachLog(entries, (path) =>
      renderLog(
        path,
        several,
        palette,
        interrupt === undefined
          ? { ...readOptions, foreignLogs: foreignLogsOf(path, several) }
          : {
              ...readOptions,
              foreignLogs: foreignLogsOf(path, several, true),
              follow: interrupt.signal,
              // A notice, as `tail -F` gives one: the exit code stays that of what is read.
              onTruncated: () =>
                io.stderr.write(
                  `cursor-stream: ${displayPath(path)}: file truncated: reading it again from the start\n`,
                ),
              onReplaced: () =>
                io.stderr.write(
                  `cursor-stream: ${displayPath(path)}: file replaced: following the new file from its start\n`,
                ),
            },
        io,
      ),
    );
    redaction.report();
    return logsExitCode(io, outcome, RENDER_INVALID_LINES);
  } finally {
    interrupt?.release();
  }
}
