/**
 * Errors the CLI reports and exits 2 for. They are values: the functions that meet them return them, and the top
 * layer prints them as one line.
 */

import { escapeControls } from '@cursor-stream/core/text';

/** What kind of failure a {@link CliError} is. */
export type CliErrorCode =
  | 'usage'
  | 'no-such-file'
  | 'is-a-directory'
  | 'not-a-directory'
  | 'permission-denied'
  | 'not-text'
  | 'bad-gzip'
  | 'no-logs-found'
  | 'read-failed'
  | 'export-failed'
  | 'foreign-format'
  | 'invalid-value';

/** A usage or I/O error, printed as `cursor-stream: PATH: MESSAGE`. */
export interface CliError {
  readonly code: CliErrorCode;
  /** The file the error is about; absent for usage errors. */
  readonly path?: string;
  /** Lower-case, no trailing period: it follows the path on one line. */
  readonly message: string;
}

/** A value, or the {@link CliError} that prevented it. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: CliError };

/** Makes a {@link CliError}. */
export function cliError(code: CliErrorCode, message: string, path?: string): CliError {
  return path === undefined ? { code, message } : { code, message, path };
}

/** The one stderr line for an error, without its line feed. */
export function formatCliError(error: CliError, program = 'cursor-stream'): string {
  return error.path === undefined
    ? `${program}: ${error.message}`
    : `${program}: ${displayPath(error.path)}: ${error.message}`;
}

/** How a path appears in messages: `-` is standard input, and control and bidi characters are escaped. */
export function displayPath(path: string): string {
  return path === '-' ? '<stdin>' : escapeControls(path);
}

const ERRNO_MESSAGES: Readonly<Record<string, readonly [CliErrorCode, string]>> = {
  ENOENT: ['no-such-file', 'no such file'],
  EISDIR: ['is-a-directory', 'is a directory'],
  ENOTDIR: ['not-a-directory', 'a parent of this path is not a directory'],
  EACCES: ['permission-denied', 'permission denied'],
  EPERM: ['permission-denied', 'permission denied'],
  Z_DATA_ERROR: ['bad-gzip', 'not valid gzip data'],
  Z_BUF_ERROR: ['bad-gzip', 'gzip data ends early'],
};

/** Turns an error thrown by `node:fs` or `node:zlib` into a {@link CliError} about `path`. */
export function ioError(path: string, error: unknown): CliError {
  const errno = (error as { code?: unknown } | null)?.code;
  const known = typeof errno === 'string' ? ERRNO_MESSAGES[errno] : undefined;
  if (known) return cliError(known[0], known[1], path);
  const detail = error instanceof Error ? error.message : String(error);
  return cliError('read-failed', `cannot read: ${detail}`, path);
}
