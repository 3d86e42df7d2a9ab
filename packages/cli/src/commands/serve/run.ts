/** `cursor-stream serve`: the relay of `@cursor-stream/relay` on the command line, until SIGINT or SIGTERM. */

import { escapeControls } from '@cursor-stream/core/text';
import { holdYoungGeneration } from '@cursor-stream/node/young-generation';
import { createRelayServer, RelayConfigError, type RelayServer } from '@cursor-stream/relay';
import { formatCliError } from '../../io/cli-error.ts';
import type { CliIo } from '../../io/cli-io.ts';
import { EXIT_OK, EXIT_USAGE_OR_IO, type ExitCode } from '../../io/exit-codes.ts';
import { stopSignal } from '../../io/signals.ts';
import { TOKEN_ENV } from './command.ts';
import { tokenOf } from './token-source.ts';

/** What `serve` runs with. */
export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string;
  agent?: string | undefined;
  /** The token on the command line: it works, and is said to be visible to every user of the machine. */
  token?: string | undefined;
  /** A file whose first line is the token. */
  tokenFile?: string | undefined;
  /** The token of the environment, taken when neither flag gives one. */
  tokenFromEnv?: string | undefined;
  maxRuns?: number | undefined;
  maxConnections?: number | undefined;
  maxPendingBytes?: number | undefined;
}

/** Serves until a stop signal; exit 2 when the relay cannot start. */
export async function runServe(options: ServeOptions, io: CliIo): Promise<ExitCode> {
  // The relay takes records of any length from requests, whose lines no reader watches: its young generation stays.
  holdYoungGeneration();
  const token = tokenOf(options);
  if (!token.ok) {
    io.stderr.write(`${formatCliError(token.error)}\n`);
    return EXIT_USAGE_OR_IO;
  }
  let relay: RelayServer;
  try {
    relay = createRelayServer({
      host: options.host,
      port: options.port,
      dataDir: options.dataDir,
      ...(token.value === undefined || token.value === '' ? {} : { token: token.value }),
      ...(options.maxRuns === undefined ? {} : { maxRuns: options.maxRuns }),
      ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
      ...(options.maxPendingBytes === undefined ? {} : { maxPendingBytes: options.maxPendingBytes }),
      // The agent runs with the server's environment, less the relay's own secret.
      agent: {
        ...(options.agent === undefined ? {} : { binary: options.agent }),
        env: { [TOKEN_ENV]: undefined },
      },
      log: (line) => io.stderr.write(`${line}\n`),
    });
  } catch (error) {
    if (!(error instanceof RelayConfigError)) throw error;
    const hint = error.code === 'token-required' ? ` (${TOKEN_ENV}, --token-file or --token)` : '';
    io.stderr.write(`cursor-stream: ${escapeControls(error.message)}${hint}\n`);
    return EXIT_USAGE_OR_IO;
  }
  const signal = stopSignal();
  try {
    const { url } = await relay.listen();
    io.stderr.write(`cursor-stream: serving on ${url} (data in ${options.dataDir})\n`);
    // Said once the server runs, so that a usage error stays one line.
    if (options.token !== undefined && options.token !== '')
      io.stderr.write(
        `cursor-stream: warning: --token is visible to every user of this machine; prefer ${TOKEN_ENV} or --token-file\n`,
      );
  } catch (error) {
    const code = (error as { code?: string }).code ?? String(error);
    io.stderr.write(`cursor-stream: cannot listen on ${options.host}:${options.port}: ${code}\n`);
    await relay.close();
    return EXIT_USAGE_OR_IO;
  }
  await signal;
  await relay.close();
  return EXIT_OK;
}
