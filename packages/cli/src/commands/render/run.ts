/** `cursor-stream render`: a readable transcript of a log, live with `--follow`. */

import { displayPath } from '@cursor-stream/core/text';
import { createPalette, shouldUseColor } from '@cursor-stream/inspect/terminal';
import { createTranscript } from '@cursor-stream/inspect/transcript';
import { hasGzipExtension, readLog } from '@cursor-stream/node/logs';
import { cliError } from '../../io/cli-error.ts';
import { type CliIo, progressFor, readingExitCode, reportError, writeText } from '../../io/cli-io.ts';
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

/**
 * Runs `render` on one log.
 *
 * @returns 0, 1 when the log had invalid lines, 2 on an I/O error.
 */
export async function runRender(path: string, options: RenderOptions, io: CliIo): Promise<ExitCode> {
  if (options.follow && (path === '-' || hasGzipExtension(path))) {
    reportError(
      io,
      cliError('usage', '--follow needs a plain file (standard input and gzip files cannot be tailed)', path),
    );
    return EXIT_USAGE_OR_IO;
  }
  const palette = createPalette(shouldUseColor({ isTTY: io.stdout.isTTY, env: io.env }));
  const transcript = createTranscript(palette, { verbose: options.verbose === true });
  const redaction = await startRedaction(options.redact, io);
  const interrupt = options.follow ? interruptSignal() : undefined;
  try {
    const { follow: _follow, verbose: _verbose, redact: _redact, ...inputOptions } = options;
    const result = await readLog(path, {
      ...inputOptions,
      redactor: redaction.redactor,
      stdin: io.stdin,
      progress: progressFor(io, true),
      ...(interrupt === undefined
        ? {}
        : {
            follow: interrupt.signal,
            // A notice, as `tail -F` gives one: the exit code stays that of what is read.
            onTruncated: () =>
              io.stderr.write(
                `cursor-stream: ${displayPath(path)}: file truncated: reading it again from the start\n`,
              ),
          }),
      onEvents: (events) => writeText(io.stdout, events.map((event) => transcript.push(event)).join('')),
    });
    await writeText(io.stdout, transcript.end());
    redaction.report();
    if (!result.ok) {
      reportError(io, result.error);
      return EXIT_USAGE_OR_IO;
    }
    return readingExitCode(io, result.value);
  } finally {
    interrupt?.release();
  }
}
