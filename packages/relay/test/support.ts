import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CanonicalEvent } from '@cursor-stream/core';
import { createRelayServer, type RelayServer, type RelayServerOptions } from '@cursor-stream/relay';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import WebSocket from 'ws';

/** The repository root. */
export const REPO_ROOT = join(import.meta.dirname, '../../..');
/** This repository's recordings. */
export const CORPUS_DIR = join(REPO_ROOT, 'corpus');
/** A recording with reasoning-free text, two tool calls and a result. */
export const RECORDING = join(CORPUS_DIR, 'official/docs-example-zh.ndjson');
/** The fake agent the tests run as cursor-agent. */
export const FAKE_AGENT = join(REPO_ROOT, 'packages/node/test/fixtures/fake-agent.mjs');
/** The built CLI. */
export const CLI = join(REPO_ROOT, 'packages/cli/bin/cursor-stream.js');

/** A scratch folder with an executable that runs the fake agent. */
export function scratch(): { dir: string; agent: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cursor-stream-relay-'));
  const agent = join(dir, 'fake-agent.sh');
  writeFileSync(
    agent,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(FAKE_AGENT)} "$@"\n`,
  );
  chmodSync(agent, 0o755);
  return { dir, agent, remove: () => rmSync(dir, { recursive: true, force: true }) };
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

/** One SSE message. */
export interface SseMessage {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/** Reads an SSE stream; stops after `limit` messages (then aborts the request) or at its end. */
export async function readSse(
  url: string,
  options: { headers?: Record<string, string>; limit?: number } = {},
): Promise<{ status: number; messages: SseMessage[] }> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: options.headers ?? {}, signal: abort.signal });
  const messages: SseMessage[] = [];
  if (response.body === null || response.status !== 200) return { status: response.status, messages };
  const stream = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream());
  try {
    for await (const message of stream) {
      messages.push({ id: message.id, event: message.event, data: message.data });
      if (options.limit !== undefined && messages.length >= options.limit) {
        abort.abort();
        break;
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  }
  return { status: response.status, messages };
}

/**
 * Every message of a run's SSE stream up to its `end` message, resuming with `Last-Event-ID` as `EventSource` would
 * when the relay closes the stream first (a reader slowed down by a busy machine can be closed as stalled).
 */
export async function readSseToEnd(url: string, attempts = 20): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    const last = messages.findLast((message) => message.id !== undefined)?.id;
    const read = await readSse(url, last === undefined ? {} : { headers: { 'last-event-id': last } });
    messages.push(...read.messages);
    if (read.messages.some((message) => message.event === 'end')) return messages;
  }
  throw new Error(`${url}: no end message after ${attempts} reads`);
}

/** The canonical events of SSE messages (the `end` message left out), with their ids. */
export function eventsOf(messages: readonly SseMessage[]): { id: string; event: CanonicalEvent }[] {
  return messages
    .filter((message) => message.event === undefined)
    .map((message) => ({ id: message.id ?? '', event: JSON.parse(message.data) as CanonicalEvent }));
}

/** Reads a run's events over WebSocket until the relay closes it. */
export function readWebSocket(
  url: string,
  options: { headers?: Record<string, string>; limit?: number } = {},
): Promise<{ id?: string; event: unknown }[]> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: options.headers ?? {} });
    const messages: { id?: string; event: unknown }[] = [];
    socket.on('message', (data) => {
      messages.push(JSON.parse(String(data)) as { id?: string; event: unknown });
      if (options.limit !== undefined && messages.length >= options.limit) socket.close();
    });
    socket.on('close', () => resolve(messages));
    socket.on('error', reject);
  });
}

/** The events `cursor-stream normalize` prints for a file, parsed. */
export function normalizeWithCli(path: string): Promise<CanonicalEvent[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'normalize', path]);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
    });
    child.on('error', reject);
    child.on('close', () =>
      resolve(
        out
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as CanonicalEvent),
      ),
    );
  });
}

/** The bytes of a recording. */
export function recordingBytes(path = RECORDING): Buffer {
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
  env: Record<string, string | undefined> = {},
): Promise<{ url: string; child: import('node:child_process').ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  await until(() => /serving on (http:\/\/\S+)/.test(stderr) || child.exitCode !== null, 'serve to listen');
  const url = /serving on (http:\/\/\S+)/.exec(stderr)?.[1];
  if (url === undefined) throw new Error(`serve did not start: ${stderr}`);
  return { url, child, stderr: () => stderr };
}

/** Runs `cursor-stream serve` expecting it to exit; gives its code and stderr. */
export function serveExit(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'serve', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Waits until a run is no longer `running`. */
export function runEnded(url: string, runId: string, headers: Record<string, string> = {}): Promise<void> {
  return until(async () => {
    const response = await fetch(`${url}/api/runs/${runId}`, { headers });
    return ((await response.json()) as { status: string }).status !== 'running';
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
