/**
 * Running the built CLI as a user does: its bin in a child process of plain `node` (not through vitest's module
 * runner), from the repository's root, with the color switches left to each test.
 */
import { type ChildProcessByStdio, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join, relative } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { DOCS_EXAMPLE, REPO_ROOT } from './corpus.ts';

/** The CLI's bin, which runs its bundle. */
export const CLI_BIN = join(REPO_ROOT, 'packages/cli/bin/cursor-stream.js');

/** {@link DOCS_EXAMPLE} as a user following the README names it: from the repository's root, where the CLI runs. */
export const RECORDING = relative(REPO_ROOT, DOCS_EXAMPLE);

/** Variables for a CLI run, over the test's own; `undefined` removes one. */
export type CliEnv = Record<string, string | undefined>;

/** How one CLI run ended. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The test's environment without the variables that change what a command does (colors, the OTLP endpoint), so that each test decides them, with `env` over it. */
function cliEnv(env: CliEnv): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries({
    ...process.env,
    FORCE_COLOR: undefined,
    NO_COLOR: undefined,
    OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
    ...env,
  })) {
    if (value !== undefined) result[key] = value;
  }
  return result;
}

function spawnCli(args: readonly string[], env: CliEnv, cwd = REPO_ROOT): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [CLI_BIN, ...args], { cwd, env: cliEnv(env) });
}

/** Runs the CLI to its end, feeding `input` to its stdin, in `cwd` (the repository's root by default). */
export function runCli(
  args: readonly string[],
  options: { input?: string | Buffer; env?: CliEnv; cwd?: string } = {},
): Promise<CliRun> {
  const child = spawnCli(args, options.env ?? {}, options.cwd);
  const ended = runOf(child);
  child.stdin.end(options.input ?? '');
  return ended;
}

/** How a child ends: its exit and all it printed. */
function runOf(child: ChildProcessByStdio<Writable | null, Readable, Readable>): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A CLI that runs while the test talks to it (`--follow`, `serve`). */
export interface StartedCli {
  readonly child: ChildProcessWithoutNullStreams;
  /** What it has printed so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves once stdout contains `text`; rejects if the CLI exits first. */
  waitFor(text: string): Promise<void>;
  /** Resolves with its exit code once it has exited. */
  exited(): Promise<number | null>;
}

/** Starts the CLI and returns while it runs. */
export function startCli(args: readonly string[], options: { env?: CliEnv; cwd?: string } = {}): StartedCli {
  const child = spawnCli(args, options.env ?? {}, options.cwd);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    waitFor(text) {
      return new Promise((resolve, reject) => {
        const onExit = (code: number | null): void => {
          if (!stdout.includes(text))
            reject(new Error(`exited (${code}) before printing ${text}: ${stderr}`));
        };
        const check = (): void => {
          if (!stdout.includes(text)) return;
          child.stdout.off('data', check);
          child.off('exit', onExit);
          resolve();
        };
        child.stdout.on('data', check);
        child.once('exit', onExit);
        check();
      });
    },
    exited() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) resolve(child.exitCode);
        else child.once('exit', (code) => resolve(code));
      });
    },
  };
}

/**
 * Runs the CLI with its standard input a socket that delivers `input`, then, after `settleMs` for the CLI to read it,
 * is reset: a read that fails part-way, as a dropped connection makes it.
 */
export async function runCliOnResetInput(
  args: readonly string[],
  input: string | Buffer,
  settleMs = 1500,
): Promise<CliRun> {
  const { createServer, connect } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  const accepted = new Promise<import('node:net').Socket>((resolve) => server.once('connection', resolve));
  const client = connect(address.port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', resolve));
  const peer = await accepted;
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd: REPO_ROOT,
    env: cliEnv({}),
    stdio: [client, 'pipe', 'pipe'],
  });
  client.destroy();
  const ended = runOf(child);
  await new Promise<void>((resolve) => peer.write(input, () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  peer.resetAndDestroy();
  server.close();
  return ended;
}
