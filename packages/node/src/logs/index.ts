/**
 * Reading logs in Node: opening a file or standard input, decompressing gzip, refusing binary input, walking
 * directories for logs, following a growing file, and reading a log (or many, session by session) through the
 * normalizer with memory bounded by the largest record.
 */

export { READ_CHUNK_BYTES } from './chunk-size.ts';
export { decompressedChunks, hasGzipExtension } from './decompress.ts';
export { followFile } from './follow-file.ts';
export {
  createForeignLogWindow,
  FOREIGN_LOG_LEAD_BYTES,
  FOREIGN_LOG_WINDOW_BYTES,
  type ForeignLogWindow,
  isForeignFromStart,
} from './foreign-log-window.ts';
export type { GzipTrailingProblem } from './gunzip-members.ts';
export { createLineCounter, type LineCounter } from './line-counter.ts';
export { ioError, type LogError, type LogErrorCode, type LogResult, logError } from './log-error.ts';
export {
  createSessionCutter,
  type LogSessionsOptions,
  type LogSessionsOutcome,
  type RangeSessionsOutcome,
  type SessionCutter,
  type SessionVisitor,
  visitLogSessions,
} from './log-sessions.ts';
export { isStandardOutput, type LogSource, type OpenLogOptions, openLog } from './open-log.ts';
export type { Progress } from './progress.ts';
export { type LogReadFacts, type LogsReadOutcome, readEachLog } from './read-each-log.ts';
export {
  foreignProblem,
  type LogStats,
  type ReadingOptions,
  type ReadLogOptions,
  readLog,
  type StandardInput,
} from './read-log.ts';
export {
  createTextSniffer,
  firstNulByte,
  looksLikeBinary,
  SNIFF_PREFIX_BYTES,
  startsLikeGzip,
  type TextSniffer,
} from './text-sniff.ts';
export {
  type ExpandLogPathsOptions,
  expandLogPaths,
  isLogFileName,
  type LogEntry,
  logsToCount,
  sdkStoreRunRows,
  withoutRepeatedLogs,
  withoutSdkStoreRunRows,
} from './walk-logs.ts';
export {
  allowYoungGenerationGrowth,
  GROW_AFTER_BYTES,
  holdYoungGeneration,
  LOG_WORKER_RESOURCE_LIMITS,
  LONG_LINE_BYTES,
  watchLineLengths,
  YOUNG_GENERATION_CAP_BYTES,
  youngGenerationGrowing,
} from './young-generation.ts';
