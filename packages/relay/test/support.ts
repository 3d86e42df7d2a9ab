import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { CanonicalEvent } from '@cursor-stream/core';
import { createRelayServer, type RelayServer, type RelayServerOptions } from '@cursor-stream/relay';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { installFakeAgent } from '@cursor-stream/test-kit/fake-agent';
import { type CliEnv, runCli, startCli } from '@cursor-stream/test-kit/run-cli';
import { scratchFolder } from '@cursor-stream/test-kit/scratch';

/** A scratch folder with an executable that runs the fake agent. */
export function scratch(): { dir: string; agent: string; remove: () => void } {
  const folder = scratchFolder('relay');
  return { ...folder, agent: installFakeAgent(folder.dir, 'fake-agent.sh') };
}

/** A relay in this process on a free loopback port, its log lines kept. */
export async function startRelay(
  options: Partial<RelayServerOptions> & { dataDir: string },
): Promise<{ relay: RelayServer; url: string; lines: string[] }> {
  const lines: string[] = [];
  const relay = createRelayServer({ port: 0, log: (line) => lines.push(line), ...options });
  const { url } = await relay.listen();
  return { relay, url, lines };
}

/** Starts a run; gives its id. */
export async function postRun(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await fetch(`${url}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST /api/runs: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { runId: string }).runId;
}

/** The events `cursor-stream normalize` prints for a file, parsed. */
export async function normalizeWithCli(path: string): Promise<CanonicalEvent[]> {
  const { stdout } = await runCli(['normalize', path]);
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as CanonicalEvent);
}

/** The bytes of a recording. */
export function recordingBytes(path = DOCS_EXAMPLE): Buffer {
  return readFileSync(path);
}

/** Waits until `check` holds, polling. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `cursor-stream serve` in a child process; resolves once it listens. */
export async function startServe(
  args: readonly string[],
  env: CliEnv = {},
): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const serve = startCli(['serve', '--port', '0', ...args], { env });
  const listening = () => /serving on (http:\/\/\S+)/.exec(serve.stderr)?.[1];
  await until(() => listening() !== undefined || serve.child.exitCode !== null, 'serve to listen');
  const url = listening();
  if (url === undefined) throw new Error(`serve did not start: ${serve.stderr}`);
  return { url, child: serve.child, stderr: () => serve.stderr };
}

/** Runs `cursor-stream serve` expecting it to exit; gives its code and stderr. */
export async function serveExit(
  args: readonly string[],
  env: CliEnv = {},
): Promise<{ code: number | null; stderr: string }> {
  const { code, stderr } = await runCli(['serve', ...args], { env });
  return { code, stderr };
}

/**
 * Waits until a run is no longer `running`, as the list of runs says: its record is small whatever the run, where its
 * summary may take a loaded machine longer to send than a test's short request timeout.
 */
export function runEnded(url: string, runId: string, headers: Record<string, string> = {}): Promise<void> {
  return until(async () => {
    const response = await fetch(`${url}/api/runs`, { headers });
    const { runs } = (await response.json()) as { runs: Array<{ runId: string; status: string }> };
    const status = runs.find((run) => run.runId === runId)?.status;
    return status !== undefined && status !== 'running';
  }, `run ${runId} to end`);
}

/**
 * Sends `text` as it is over a fresh TCP connection to the server at `url` and gives everything it answers until it
 * closes the connection (or `waitMs` passes without it doing so).
 */
export function rawExchange(url: string, text: string | Buffer, waitMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname.replace(/^\[(.*)\]$/, '$1'), () => socket.write(text));
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', done);
    socket.on('error', done);
  });
}

/** The status of a raw HTTP answer (`HTTP/1.1 400 Bad Request` gives 400); 0 when there is none. */
export function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1] ?? 0);
}

/** A raw request: a request line with `target` as it is, a Host header naming `url`'s host, and `headers`. */
export function rawRequest(
  url: string,
  method: string,
  target: string,
  headers: readonly string[] = [],
): string {
  const { host } = new URL(url);
  const connection = headers.some((header) => /^connection:/i.test(header)) ? [] : ['Connection: close'];
  return [`${method} ${target} HTTP/1.1`, `Host: ${host}`, ...connection, ...headers, '', ''].join('\r\n');
}

/** The headers of a WebSocket upgrade. */
export const UPGRADE_HEADERS = [
  'Upgrade: websocket',
  'Connection: Upgrade',
  'Sec-WebSocket-Version: 13',
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
];
