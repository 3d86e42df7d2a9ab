/**
 * Where `serve`'s bearer token comes from: `--token`, `--token-file` or the environment. A file keeps the secret off
 * the command line, which every user of the machine can read; it may be a pipe (`--token-file <(pass show relay)`).
 */

import { closeSync, openSync, readSync } from 'node:fs';
import { cliError, type Result } from '../../io/cli-error.ts';

/** The longest token file read: a token is a line, and a file past this is not one. */
const MAX_TOKEN_FILE_BYTES = 4096;

/** The token of `--token`, `--token-file` or the environment, in that order; both flags at once are refused. */
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

/** The first line of the file, without its line break; white space around it is not part of a token. */
function readTokenFile(path: string): Result<string> {
  const buffer = Buffer.alloc(MAX_TOKEN_FILE_BYTES + 1);
  let length = 0;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_TOKEN_FILE_BYTES)
        return { ok: false, error: tokenFileError(path, `over ${MAX_TOKEN_FILE_BYTES} bytes: not a token`) };
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
  const text = buffer.toString('utf8', 0, length);
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const token = firstLine.trim();
  if (token === '') return { ok: false, error: tokenFileError(path, 'no token on its first line') };
  return { ok: true, value: token };
}

/** An error of the token file, named as the flag that gave it. */
function tokenFileError(path: string, message: string) {
  return cliError('invalid-value', `--token-file: ${message}`, path);
}
