/**
 * Where `serve`'s bearer token comes from: `--token` or `--token-file`, else the environment. A file keeps the
 * secret off the command line, which every user of the machine can read; it may be a pipe
 * (`--token-file <(pass show relay)`).
 */

import { closeSync, openSync, readSync } from 'node:fs';
import { cliError, type Result } from '../../io/cli-error.ts';

/** The longest first line read: a token is a line, and a longer one is not a token. */
const MAX_TOKEN_LINE_BYTES = 4096;

/**
 * What a token cannot hold: control characters and U+FFFD (bytes that are not UTF-8, such as a UTF-16 file's), which no
 * client could send back in a header.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
const NOT_TOKEN_CHARACTER = /[\u0000-\u001f\u007f\ufffd]/;

/** The token of `--token` or `--token-file`, else of the environment; both flags at once are refused. */
export function tokenOf(flags: {
  token?: string | undefined;
  tokenFile?: string | undefined;
  tokenFromEnv?: string | undefined;
}): Result<string | undefined> {
  if (flags.token !== undefined && flags.tokenFile !== undefined)
    return { ok: false, error: cliError('invalid-value', 'give --token or --token-file, not both') };
  if (flags.tokenFile !== undefined) return readTokenFile(flags.tokenFile);
  return { ok: true, value: flags.token ?? flags.tokenFromEnv };
}

/**
 * The file's first line, without its line break and the white space around it (a byte order mark included). Reading
 * stops at the first line break, so a pipe whose writer prints the token and stays open is read, and what follows the
 * token (a note in a password manager's entry) is never read.
 */
function readTokenFile(path: string): Result<string> {
  const buffer = Buffer.alloc(MAX_TOKEN_LINE_BYTES + 1);
  let length = 0;
  let lineEnd = -1;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    while (lineEnd === -1 && length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      lineEnd = lineBreakIn(buffer, length, length + read);
      length += read;
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      ok: false,
      error: tokenFileError(path, `cannot read it: ${typeof code === 'string' ? code : String(error)}`),
    };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const end = lineEnd === -1 ? length : lineEnd;
  if (end > MAX_TOKEN_LINE_BYTES)
    return {
      ok: false,
      error: tokenFileError(path, `its first line is over ${MAX_TOKEN_LINE_BYTES} bytes: not a token`),
    };
  const token = buffer.toString('utf8', 0, end).trim();
  if (token === '') return { ok: false, error: tokenFileError(path, 'no token on its first line') };
  if (NOT_TOKEN_CHARACTER.test(token))
    return {
      ok: false,
      error: tokenFileError(
        path,
        'its first line holds control characters or bytes that are not UTF-8: not a token',
      ),
    };
  return { ok: true, value: token };
}

/** Where the first line break (LF or CR) in `buffer[from, to)` is, or -1. */
function lineBreakIn(buffer: Buffer, from: number, to: number): number {
  for (let index = from; index < to; index++) {
    const byte = buffer[index];
    if (byte === 0x0a || byte === 0x0d) return index;
  }
  return -1;
}

/** An error of the token file, named as the flag that gave it. */
function tokenFileError(path: string, message: string) {
  return cliError('invalid-value', `--token-file: ${message}`, path);
}
