/** `cursor-stream summary`: the session reducer's view of a log, as a table or as JSON. */

import { type CanonicalEvent, createSessionReducer } from '@cursor-stream/core/normalize';
import { type CliIo, progressFor, reportError, writeText } from '../cli-io.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE_OR_IO, type ExitCode } from '../exit-codes.ts';
import { createPalette, shouldUseColor } from '../format/colors.ts';
import {
  MAX_INVALID_LINES_LISTED,
  type SummaryInvalidLineJson,
  type SummaryJson,
  sessionJson,
} from '../format/summary-json.ts';
import { formatSummaryText } from '../format/summary-text.ts';
import type { InputOptions } from '../options.ts';
import { readLog } from '../read-log.ts';

/** Options of `summary`. */
export interface SummaryOptions extends InputOptions {
  /** Print the JSON document instead of the table. */
  json: boolean;
}

function reducerOptions(options: InputOptions): { dialect?: string } {
  return options.dialect === 'auto' ? {} : { dialect: options.dialect };
}

/**
 * Runs `summary` on one log.
 *
 * @returns 0, 1 when the log had invalid lines, 2 on an I/O error.
 */
export async function runSummary(path: string, options: SummaryOptions, io: CliIo): Promise<ExitCode> {
  const reducer = createSessionReducer(reducerOptions(options));
  const invalidLines: SummaryInvalidLineJson[] = [];
  let invalidLinesOmitted = 0;
  const result = await readLog(path, {
    ...options,
    stdin: io.stdin,
    progress: progressFor(io, false),
    onEvents(events: readonly CanonicalEvent[]) {
      for (const event of events) {
        reducer.push(event);
        if (event.type === 'invalid-line' && event.loc !== undefined) {
          if (invalidLines.length < MAX_INVALID_LINES_LISTED) {
            invalidLines.push({ line: event.loc.line, offset: event.loc.offset, code: event.code });
          } else invalidLinesOmitted++;
        }
      }
    },
  });
  if (!result.ok) {
    reportError(io, result.error);
    return EXIT_USAGE_OR_IO;
  }
  const { lines, bytes, dialect } = result.value;
  const summary: SummaryJson = {
    sessions: reducer.sessions().map((session) => sessionJson(session, dialect)),
    invalidLines,
    ...(invalidLinesOmitted > 0 ? { invalidLinesOmitted } : {}),
    lines,
    bytes,
  };
  const text = options.json
    ? `${JSON.stringify(summary, null, 2)}\n`
    : `${formatSummaryText(summary, createPalette(shouldUseColor({ isTTY: io.stdout.isTTY, env: io.env }))).join('\n')}\n`;
  await writeText(io.stdout, text);
  return result.value.invalidLines > 0 ? EXIT_PROBLEMS : EXIT_OK;
}
