/**
 * `cursor-stream summary`: the session reducer's view of a log, as a table or as JSON. Each session is written once
 * it ends (to a pipe or a file, with others in writes of 64 KiB), so memory holds the open session and a write's worth
 * only, however many sessions the log has. A large file is read in ranges on worker threads, with the same output.
 */

import { type BoundedSession, createBoundedSessions } from '@cursor-stream/core/sessions';
import { jsonPath } from '@cursor-stream/core/text';
import { foreignLogsFields } from '@cursor-stream/inspect/foreign-logs';
import {
  createInvalidLineList,
  createInvalidLinesJoin,
  createSummaryJsonWriter,
  type InvalidLinesJson,
  type SummaryFooter,
  sessionJson,
  sessionJsonBlock,
  sessionTextBlock,
  summaryFooterLine,
  type UsageLeftOut,
  usageLeftOut,
} from '@cursor-stream/inspect/summary';
import { createPalette, type Palette, shouldUseColor } from '@cursor-stream/inspect/terminal';
import {
  expandLogPaths,
  type LogResult,
  type LogStats,
  readEachLog,
  readLog,
  withoutRepeatedLogs,
} from '@cursor-stream/node/logs';
import { readInRanges } from '@cursor-stream/node/ranges';
// The digest alone, without the rest of the package (child processes), which a command's start-up need not load.
import { createNodeTextDigest } from '@cursor-stream/node/text-digest';
import { commandModuleUrl } from '../../command-modules.ts';
import {
  type CliIo,
  jobsFor,
  logsExitCode,
  progressFor,
  refusesStdinTwice,
  splitBytesFrom,
  writeText,
} from '../../io/cli-io.ts';
import { EXIT_USAGE_OR_IO, type ExitCode } from '../../io/exit-codes.ts';
import type { InputOptions } from '../../io/options.ts';
import { createValueProblemList } from '../../io/value-problems.ts';
import type { SummaryRangeResult, SummaryRangeSetup } from './range-consumer.ts';

/** Options of `summary`. */
export interface SummaryOptions extends InputOptions {
  /** Print the JSON document instead of the table. */
  json: boolean;
  /** Worker threads a large file may be read on. */
  jobs: number;
}

/** Where the sessions go as they end: the JSON document, or the text blocks. */
interface SummarySink {
  /** Whether the text form is colored. */
  readonly color: boolean;
  readonly palette: Palette;
  /** Takes a session's block, as {@link sessionJsonBlock} or {@link sessionTextBlock} renders it. */
  block(text: string): Promise<void>;
  /** Writes the blocks taken so far, at once, when they are a write's worth (to a terminal, always). */
  flush(): Promise<void>;
  /** Writes the footer, and what is left. */
  end(footer: SummaryFooter): Promise<void>;
  /** Whether a session has been taken: the document is begun, and must be ended whatever comes. */
  begun(): boolean;
}

/**
 * Characters of session blocks gathered before they are written to a pipe or a file. Joined, they are one string: at
 * 64 Ki characters a text with one character past Latin-1 is a 128 KiB string, which V8 puts in its large-object
 * space, a mapping of its own made and unmapped for each write (summaries of recorded captures took a sixth longer).
 */
export const PENDING_OUTPUT_CHARS = 16 * 1024;

function summarySink(options: SummaryOptions, io: CliIo): SummarySink {
  // A write per session, or per log of a folder of small ones, costs more than its text: blocks go out in writes of
  // some size. A terminal sees each batch's sessions at once. What is held is that size and one batch's sessions.
  let pending: string[] = [];
  let pendingChars = 0;
  const pendingLimit = io.stdout.isTTY === true ? 0 : PENDING_OUTPUT_CHARS;
  const write = async (text: string): Promise<void> => {
    pending.push(text);
    pendingChars += text.length;
  };
  const writePending = (): Promise<void> => {
    const text = pending.join('');
    pending = [];
    pendingChars = 0;
    return writeText(io.stdout, text);
  };
  const flush = async (): Promise<void> => {
    if (pendingChars > pendingLimit) await writePending();
  };
  const color = shouldUseColor({ isTTY: io.stdout.isTTY, env: io.env });
  const palette = createPalette(color);
  let sessions = 0;
  const begun = () => sessions > 0;
  if (options.json) {
    const writer = createSummaryJsonWriter(write);
    return {
      color,
      palette,
      block(text) {
        sessions += 1;
        return writer.sessionBlock(text);
      },
      flush,
      begun,
      async end(footer) {
        await writer.end(footer);
        await writePending();
      },
    };
  }
  return {
    color,
    palette,
    block(text) {
      sessions += 1;
      return write(text);
    },
    flush,
    begun,
    async end(footer) {
      await write(`${summaryFooterLine(footer, sessions, palette)}\n`);
      await writePending();
    },
  };
}

/**
 * What reading one log came to: its stats, its invalid lines as the summary lists them, and the token counts its
 * sessions' usage left out.
 */
interface SummarizedLog {
  readonly stats: LogStats;
  readonly invalidLines: InvalidLinesJson;
  readonly usageLeftOut: UsageLeftOut;
}

/** A log to read, as `summary` names it. */
interface SummaryLog {
  readonly path: string;
  /** The log's name on each of its sessions and invalid lines, when more than one log is read. */
  readonly file: string | undefined;
  /** Whether the path was a regular file when listed. */
  readonly regularFile: boolean;
}

/** Reads a log on this thread, writing each session as it ends. */
async function summarizeHere(
  { path, file, regularFile }: SummaryLog,
  options: SummaryOptions,
  io: CliIo,
  sink: SummarySink,
): Promise<LogResult<SummarizedLog>> {
  const invalidLines = createInvalidLineList(file);
  const leftOut = usageLeftOut();
  const finished: BoundedSession[] = [];
  const sessions = createBoundedSessions(
    {
      ...(options.dialect === 'auto' ? {} : { dialect: options.dialect }),
      textDigest: createNodeTextDigest,
    },
    (session) => finished.push(session),
  );
  // The dialect is known once detected; a session the reducer could not name one for is printed with it.
  let dialect: string | null = null;
  async function flush(): Promise<void> {
    for (const session of finished.splice(0)) {
      leftOut.add(session);
      const json = sessionJson(session, dialect, file);
      await sink.block(options.json ? sessionJsonBlock(json) : sessionTextBlock(json, sink.palette));
    }
    await sink.flush();
  }
  // Named one by one: spreading the options into a literal takes V8's slow path, microseconds per log of a folder.
  const result = await readLog(path, {
    dialect: options.dialect,
    maxRecordBytes: options.maxRecordBytes,
    foreignLogs: 'leave-out',
    regularFile,
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
  // A log that failed part-way has its sessions read so far, the last cut where the reading stopped.
  sessions.end();
  await flush();
  if (!result.ok) return result;
  const value = { stats: result.value, invalidLines: invalidLines.json(), usageLeftOut: leftOut.json() };
  return { ok: true, value };
}

/** Reads a large file in ranges on worker threads, writing the sessions in order; `null` when it is not split. */
async function summarizeInRanges(
  path: string,
  options: SummaryOptions,
  io: CliIo,
  sink: SummarySink,
): Promise<LogResult<SummarizedLog> | null> {
  const invalidLines = createInvalidLinesJoin();
  const leftOut = usageLeftOut();
  const setup: SummaryRangeSetup = {
    json: options.json,
    color: sink.color,
    dialect: options.dialect === 'auto' ? undefined : options.dialect,
  };
  const read = await readInRanges(path, {
    ...options,
    jobs: jobsFor(io, options.jobs),
    splitBytes: splitBytesFrom(io.env),
    consumer: commandModuleUrl('summary', 'range-consumer'),
    setup,
    progress: progressFor(io, false),
    async items(blocks) {
      for (const block of blocks) await sink.block(block as string);
      await sink.flush();
    },
    result(part) {
      const range = part as SummaryRangeResult;
      invalidLines.add(range);
      leftOut.join(range.usageLeftOut);
    },
  });
  if (read === null || !read.ok) return read;
  const value = { stats: read.value.stats, invalidLines: invalidLines.json(), usageLeftOut: leftOut.json() };
  return { ok: true, value };
}

/** What `summary` makes of invalid lines, said when they make it exit 1. */
const SUMMARY_INVALID_LINES = 'listed in the summary (cursor-stream validate says what is wrong with them)';

/**
 * Runs `summary` on logs and directories of logs, one after the other. One log alone is summarized as it always was
 * (and a large file read in ranges on `--jobs` threads); with more, each session and invalid line names its log.
 *
 * @returns 0, 1 when a log had invalid lines, a token count no sum can take or was another agent's, 2 when an argument
 * could not be read.
 */
export async function runSummary(
  paths: readonly string[],
  options: SummaryOptions,
  io: CliIo,
): Promise<ExitCode> {
  if (refusesStdinTwice(paths, io)) return EXIT_USAGE_OR_IO;
  // The same file named twice is summed up once.
  const { entries, leftOut } = withoutRepeatedLogs(paths, await expandLogPaths(paths, { sizes: false }));
  const several = entries.length > 1;
  const sink = summarySink(options, io);
  const invalidLines = createInvalidLinesJoin();
  // Token counts the sessions' usage left out, said as `usage` says the values it leaves out.
  const usageNotes = createValueProblemList();
  let lines = 0;
  let bytes = 0;
  const outcome = await readEachLog(entries, async (path, regularFile) => {
    const file = several ? jsonPath(path) : undefined;
    const result =
      (several ? null : await summarizeInRanges(path, options, io, sink)) ??
      (await summarizeHere({ path, file, regularFile }, options, io, sink));
    if (!result.ok) return result;
    const { stats } = result.value;
    invalidLines.add(result.value.invalidLines);
    const { listed, omitted } = result.value.usageLeftOut;
    usageNotes.addMessages(path, listed, omitted);
    lines += stats.lines;
    bytes += stats.bytes;
    return { ok: true, value: stats };
  });
  // Nothing read, nothing to sum up in text: the errors say why. A document is written whatever was read, so that
  // what reads it (`| jq`) always gets one. A log that failed part-way, after sessions were written (a read error, a
  // file cut short under the ranges' readers), still gets them and a whole document.
  if (options.json || outcome.files > 0 || sink.begun()) {
    const footer: SummaryFooter = { ...invalidLines.json(), lines, bytes };
    const counted = several ? { ...footer, files: outcome.files } : footer;
    await sink.end({ ...counted, ...foreignLogsFields(outcome.inputProblems) });
  }
  const inputProblems = [...outcome.inputProblems, ...usageNotes.errors()];
  return logsExitCode(io, { ...outcome, inputProblems, countedElsewhere: leftOut }, SUMMARY_INVALID_LINES);
}
