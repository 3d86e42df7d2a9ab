/**
 * Why a log could not be read, as a value: the functions that meet a failure return it, and the caller says it in
 * one line.
 */

/** What kind of failure a {@link LogError} is. */
export type LogErrorCode =
  /** The caller asked for what cannot be done: standard input on a terminal, following a pipe. */
  | 'usage'
  | 'no-such-file'
  | 'is-a-directory'
  | 'not-a-directory'
  | 'permission-denied'
  /** Binary or not UTF-8: not a log at all. */
  | 'not-text'
  /** Not gzip data, or gzip data that goes wrong after its readable part. */
  | 'bad-gzip'
  /** A directory holds no log. */
  | 'no-logs-found'
  | 'read-failed'
  /** Another agent's log, or one that mixes its records in. */
  | 'foreign-format'
  /** A file that grew while it was read in ranges, planned on its size at the start: what came after is not read. */
  | 'grew-while-read'
  /**
   * Not a failure: a log left out of what a command adds up because another log it reads holds the same runs (the
   * `@cursor/sdk` store's `runs.ndjson` beside its `run_events.ndjson`).
   */
  | 'counted-elsewhere';

/** A failure to read a log, about one file. */
export interface LogError {
  readonly code: LogErrorCode;
  /** The log the error is about, as given (`-` is standard input); absent when it is about no file. */
  readonly path?: string;
  /** Lower-case, no trailing period: it follows the path on one line. */
  readonly message: string;
  /** The line of the log it is about, when it is about one (the record that told another agent's log). */
  readonly line?: number;
}

/** A value, or the {@link LogError} that prevented it. */
export type LogResult<T> = { ok: true; value: T } | { ok: false; error: LogError };

/** Makes a {@link LogError}. */
export function logError(code: LogErrorCode, message: string, path?: string): LogError {
  return path === undefined ? { code, message } : { code, message, path };
}

const ERRNO_MESSAGES: Readonly<Record<string, readonly [LogErrorCode, string]>> = {
  ENOENT: ['no-such-file', 'no such file'],
  EISDIR: ['is-a-directory', 'is a directory'],
  ENOTDIR: ['not-a-directory', 'a parent of this path is not a directory'],
  EACCES: ['permission-denied', 'permission denied'],
  EPERM: ['permission-denied', 'permission denied'],
  Z_DATA_ERROR: ['bad-gzip', 'not valid gzip data'],
  Z_BUF_ERROR: ['bad-gzip', 'gzip data ends early'],
};

/** Turns an error thrown by `node:fs` or `node:zlib` into a {@link LogError} about `path`. */
export function ioError(path: string, error: unknown): LogError {
  const errno = (error as { code?: unknown } | null)?.code;
  const known = typeof errno === 'string' ? ERRNO_MESSAGES[errno] : undefined;
  if (known) return logError(known[0], known[1], path);
  const detail = error instanceof Error ? error.message : String(error);
  return logError('read-failed', `cannot read: ${detail}`, path);
}
