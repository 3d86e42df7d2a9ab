/**
 * `cursor-stream serve`, as `--help` shows it. Its code (`run.ts` and the relay package) is loaded only when it
 * runs.
 */

import { InvalidArgumentError, Option } from 'commander';
import { type CommandDeclaration, examplesHelp, type HelpExample } from '../../io/command-options.ts';

/** The environment variable that may hold the token, so that it need not be on the command line. */
export const TOKEN_ENV = 'CURSOR_STREAM_TOKEN';

const SERVE_HELP = `
Endpoints:
  POST /api/runs                 start a run: {"prompt", "chatId"?, "model"?, "mode"?, "workspace"?}
  GET  /api/runs                 list runs; GET /api/runs/ID: one run's summary
  POST /api/runs/ID/cancel       cancel a run
  GET  /api/runs/ID/events       its events over SSE (?after=ID or Last-Event-ID, ?format=canonical|
                                 payload-envelope|ai-sdk); /api/runs/ID/ws: the same over WebSocket
  GET  /                         the live page
Each event's id is the byte offset of its record in the run's log (DIR/runs/ID.ndjson), so a client resumes
exactly, also after a restart. Runs in flight when the server stopped are marked interrupted.

Security:
  Listens on loopback unless --host says otherwise; any other address requires a token (--token or the
  first line of --token-file, else ${TOKEN_ENV}), sent as "Authorization: Bearer TOKEN" (the page: open it
  once as /?token=TOKEN). Prefer ${TOKEN_ENV} or --token-file: a command line is visible to every user of
  the machine.

Limits:
  A new run past --max-runs runs in flight is refused with 429, a new event stream (SSE or WebSocket) past
  --max-connections open ones with 503. A client holds at most 256 KiB of output it has not read; one that reads
  nothing for 30 s is closed (WebSocket code 4408) and resumes after the last id it received. A run's output
  waits to be written to its log within --max-pending-bytes; past it the agent's output is not read until the
  log has caught up. A run keeps its newest events within 8 MiB, besides the newest one whatever its size.

Exit codes:
  0  stopped by SIGINT or SIGTERM
  2  usage error (a non-loopback host without a token, --token with --token-file, a token file that cannot be
     read or whose first line is no token, a bad port or limit, a data directory that cannot hold runs) or the
     address is in use`;

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535)
    throw new InvalidArgumentError('must be a port number (0 picks one)');
  return port;
}

function parseDataDir(text: string): string {
  // An empty path would keep runs in the working directory's `runs/` without a word.
  if (text.trim() === '') throw new InvalidArgumentError('must name a directory');
  return text;
}

function parseAgent(text: string): string {
  // An empty path would be taken as given, and every run would fail to start.
  if (text.trim() === '') throw new InvalidArgumentError('must name the agent executable');
  return text;
}

function parseLimit(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1)
    throw new InvalidArgumentError('must be a positive integer');
  return value;
}

/** The flags commander collects for `serve`. */
export interface ServeFlags {
  host: string;
  port: number;
  dataDir: string;
  agent?: string;
  token?: string;
  tokenFile?: string;
  maxRuns: number;
  maxConnections: number;
  maxPendingBytes: number;
}

/** The invocations `--help` shows; a test runs each on the repository's corpus. */
const EXAMPLES: readonly HelpExample[] = [
  { command: 'cursor-stream serve', does: 'the relay on 127.0.0.1:8787, its runs kept in .cursor-stream' },
  {
    command: 'cursor-stream serve --port 0 --data-dir runs',
    does: 'on a free port (said on stderr), its runs kept in runs/',
  },
];

/** Declares `serve`. */
export const declareServe: CommandDeclaration<typeof import('./run.ts')> = (command, { io, done }, load) => {
  command
    .summary('run the agent for browsers: SSE, WebSocket and a live page')
    .description(
      'Serve cursor-agent runs over HTTP: start runs, stream their canonical events over SSE or WebSocket (resumable by byte offset), and a live page at /.',
    )
    .option('--host <host>', 'the address to listen on', '127.0.0.1')
    .addOption(new Option('--port <port>', 'the port to listen on').argParser(parsePort).default(8787))
    .addOption(
      new Option('--data-dir <dir>', 'where run logs and records are kept')
        .argParser(parseDataDir)
        .default('.cursor-stream'),
    )
    .addOption(
      new Option(
        '--agent <path>',
        'the agent executable (default: cursor-agent, else agent, on the PATH)',
      ).argParser(parseAgent),
    )
    .option('--token <token>', `the bearer token, visible to every user (also read from ${TOKEN_ENV})`)
    .option(
      '--token-file <path>',
      'a file whose first line is the bearer token (a secret file, or <(command))',
    )
    .addOption(
      new Option('--max-runs <n>', 'runs in flight at once (429 past it)').argParser(parseLimit).default(16),
    )
    .addOption(
      new Option('--max-connections <n>', 'open SSE and WebSocket streams at once (503 past it)')
        .argParser(parseLimit)
        .default(1024),
    )
    .addOption(
      new Option(
        '--max-pending-bytes <n>',
        "bytes of a run's output read and not yet written to its log, past which the agent's output waits",
      )
        .argParser(parseLimit)
        .default(4 * 1024 * 1024, '4 MiB'),
    )
    .addHelpText('after', `${SERVE_HELP}\n${examplesHelp(EXAMPLES)}`)
    .action(async (flags: ServeFlags) => {
      const { runServe } = await load();
      done(await runServe({ ...flags, tokenFromEnv: io.env[TOKEN_ENV] }, io));
    });
};
