/**
 * Errors the CLI reports and exits 2 for. They are values: the functions that meet them return them, and the top
 * layer prints them as one line.
 */

import { displayPath, escapeControls } from '@cursor-stream/core/text';
import type { LogErrorCode } from '@cursor-stream/node/logs';

/** What kind of failure a {@link CliError} is: a log's own failures, and the CLI's. */
export type CliErrorCode =
  | LogErrorCode
  | 'export-failed'
  | 'invalid-value'
  | 'invalid-lines'
  /** `validate` found problems in logs. */
  | 'validation-problems'
  /** `census` found what the schemas or the canonical model do not know. */
  | 'unknown-to-schemas'
  /** The command failed by a fault of its own (exit code 70). */
  | 'internal';

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

/**
 * The one stderr line for an error, without its line feed. The message is escaped as a path is: it may quote what
 * the CLI does not control (a server's answer, a library's error), which must not move the terminal's cursor or
 * break the line.
 */
export function formatCliError(error: CliError, program = 'cursor-stream'): string {
  const message = escapeControls(error.message);
  return error.path === undefined
    ? `${program}: ${message}`
    : `${program}: ${displayPath(error.path)}: ${message}`;
}
