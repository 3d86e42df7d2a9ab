/**
 * `cursor-stream summary`: the session reducer's view of a log, as a table or as JSON. Each session is written as
 * soon as it ends, so memory holds the open session only, however many sessions the log has.
 */

import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import { type CliIo, progressFor, readingExitCode, reportError, writeText } from '../cli-io.ts';
import { EXIT_USAGE_OR_IO, type ExitCode } from '../exit-codes.ts';
import { createPalette, shouldUseColor } from '../format/colors.ts';
import {
  createSummaryJsonWriter,
  MAX_INVALID_LINES_LISTED,
  type SummaryInvalidLineJson,
  type SummaryJson,
  type SummarySessionJson,
  sessionJson,
} from '../format/summary-json.ts';
import { sessionLines, summaryFooterLine } from '../format/summary-text.ts';
import type { InputOptions } from '../options.ts';
import { readLog } from '../read-log.ts';
import { type BoundedSession, createBoundedSessions } from '../sessions/bounded-sessions.ts';

/** Options of `summary`. */
export interface SummaryOptions extends InputOptions {
  /** Print the JSON document instead of the table. */
  json: boolean;
}

/** Where the sessions go as they end: the JSON document, or the text blocks. */
interface SummarySink {
  session(json: SummarySessionJson): Promise<void>;
  end(rest: Omit<SummaryJson, 'sessions'>, sessionCount: number): Promise<void>;
}

function summarySink(options: SummaryOptions, io: CliIo): SummarySink {
  const write = (text: string): Promise<void> => writeText(io.stdout, text);
  if (options.json) {
    const writer = createSummaryJsonWriter(write);
    return { session: writer.session, end: (rest) => writer.end(rest) };
  }
  const palette = createPalette(shouldUseColor({ isTTY: io.stdout.isTTY, env: io.env }));
  return {
    session: (json) => write(`${sessionLines(json, palette).join('\n')}\n\n`),
    end: (rest, sessionCount) => write(`${summaryFooterLine(rest, sessionCount, palette)}\n`),
  };
}

/** Keeps the first invalid lines and counts the rest. */
function createInvalidLineList() {
  const listed: SummaryInvalidLineJson[] = [];
  let omitted = 0;
  return {
    add(event: CanonicalEvent): void {
      if (event.type !== 'invalid-line' || event.loc === undefined) return;
      if (listed.length < MAX_INVALID_LINES_LISTED) {
        listed.push({ line: event.loc.line, offset: event.loc.offset, code: event.code });
      } else omitted++;
    },
    json(): Pick<SummaryJson, 'invalidLines' | 'invalidLinesOmitted'> {
      return omitted > 0 ? { invalidLines: listed, invalidLinesOmitted: omitted } : { invalidLines: listed };
    },
  };
}

/**
 * Runs `summary` on one log.
 *
 * @returns 0, 1 when the log had invalid lines, 2 on an I/O error.
 */
export async function runSummary(path: string, options: SummaryOptions, io: CliIo): Promise<ExitCode> {
  const sink = summarySink(options, io);
  const invalidLines = createInvalidLineList();
  const finished: BoundedSession[] = [];
  const sessions = createBoundedSessions(
    options.dialect === 'auto' ? {} : { dialect: options.dialect },
    (session) => finished.push(session),
  );
  let sessionCount = 0;
  // The dialect is known once detected; a session the reducer could not name one for is printed with it.
  let dialect: string | null = null;
  async function flush(): Promise<void> {
    for (const session of finished.splice(0)) {
      sessionCount += 1;
      await sink.session(sessionJson(session, dialect));
    }
  }
  const result = await readLog(path, {
    ...options,
    stdin: io.stdin,
    progress: progressFor(io, false),
    onDialect(name) {
      dialect = name;
    },
    async onEvents(events) {
      for (const event of events) {
        sessions.push(event);
        invalidLines.add(event);
      }
      await flush();
    },
  });
  if (!result.ok) {
    reportError(io, result.error);
    return EXIT_USAGE_OR_IO;
  }
  sessions.end();
  await flush();
  const { lines, bytes } = result.value;
  await sink.end({ ...invalidLines.json(), lines, bytes }, sessionCount);
  return readingExitCode(io, result.value);
}
