/**
 * The relay's memory rows (`pnpm bench --relay-memory`): the built CLI's `serve` as installed, each row a fresh
 * process with an agent that writes a generated log on its stdout, and the server's peak RSS (`VmHWM`) once the run
 * has ended and every client was dealt with. The rows: a run of 32 MB records alone, the same with 20 clients (half
 * SSE, half WebSocket) that connect as it starts and never read a byte, and a run that prints 600 MB of text. A
 * client that never reads holds at most its queue (the relay closes it once it has taken nothing for 30 s), and an
 * event's bytes are shared by all of them, so the second row must stay near the first.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHugeTextLog, ensureLargeRecordsLog } from './memory-logs.ts';
import { CLI_BIN, CLI_BUILT, shebangNodeFlags } from './memory-run.ts';
import { REPOSITORY_ROOT } from './spawn-run.ts';
import type { Log } from './throughput.ts';

/** How large the rows' runs are. */
export interface RelayMemoryScale {
  /** Records of the first two rows' run, and each one's text, MB (10^6 bytes). */
  records: number;
  recordMb: number;
  /** Clients of the second row that never read. */
  clients: number;
  /** Text the third row's run prints, MB. */
  textMb: number;
}

/** The scale the rows are meant to run at. */
export const FULL_RELAY_MEMORY_SCALE: RelayMemoryScale = {
  records: 10,
  recordMb: 32,
  clients: 20,
  textMb: 600,
};

/** One row: a run served by a fresh relay, and the relay's peak RSS. */
export interface RelayMemoryRow {
  run: string;
  /** The run's log, bytes. */
  logBytes: number;
  /** Clients that connected as the run started and never read. */
  silentClients: number;
  /** Of them, those the relay closed for taking nothing. */
  closedClients: number;
  /** How the run ended. */
  status: string;
  peakRssMb: number;
  seconds: number;
}

/** The environment variable that names the log the bench agent prints. */
const LOG_ENV = 'CURSOR_STREAM_BENCH_LOG';

/** An agent that takes its prompt and prints the log named by {@link LOG_ENV}, as cursor-agent would print a run. */
function writeAgent(dir: string): string {
  const agent = join(dir, 'print-log.sh');
  writeFileSync(agent, `#!/bin/sh\ncat > /dev/null\nexec cat "$${LOG_ENV}"\n`);
  chmodSync(agent, 0o755);
  return agent;
}

function startServe(
  dataDir: string,
  agent: string,
  logFile: string,
): Promise<{ child: ChildProcess; port: number; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [...shebangNodeFlags(CLI_BIN), CLI_BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--agent', agent],
    {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, [LOG_ENV]: logFile },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const port = /serving on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)?.[1];
      if (port !== undefined) resolve({ child, port: Number(port), stderr: () => stderr });
    });
    child.on('exit', () => reject(new Error(`serve exited: ${stderr}`)));
  });
}

function call(port: number, method: string, path: string, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // A connection of its own each time: a kept-alive one the server closed while busy would be reset.
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method,
        path,
        headers: { 'content-type': 'application/json' },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (part: string) => {
          text += part;
        });
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A client that asks for the run's events and never reads a byte of them. */
function silentClient(port: number, runId: string, webSocket: boolean): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const target = webSocket ? `/api/runs/${runId}/ws` : `/api/runs/${runId}/events`;
  const upgrade = webSocket
    ? 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'
    : '';
  socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${upgrade}\r\n`);
  socket.pause();
  return socket;
}

function peakRssMb(pid: number): number {
  const kb = Number(
    /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN,
  );
  return (kb * 1024) / 1e6;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Serves one run of `logFile` to `clients` silent clients; waits until it has ended and they are closed. */
async function measureRun(run: string, logFile: string, clients: number, log: Log): Promise<RelayMemoryRow> {
  log(`relay memory: ${run}, ${clients} clients that never read ...`);
  const dir = mkdtempSync(join(tmpdir(), 'cursor-stream-relay-memory-'));
  const { child, port, stderr } = await startServe(join(dir, 'data'), writeAgent(dir), logFile);
  const exited = once(child, 'exit');
  const sockets: Socket[] = [];
  // Read as it goes: a server that dies takes its figures with it.
  let peak = 0;
  const closed = () => (stderr().match(/took nothing for too long/g) ?? []).length;
  const row = (status: string, seconds: number): RelayMemoryRow => ({
    run,
    logBytes: statSync(logFile).size,
    silentClients: clients,
    closedClients: closed(),
    status,
    peakRssMb: peak,
    seconds,
  });
  const started = performance.now();
  try {
    const { runId } = JSON.parse(await call(port, 'POST', '/api/runs', '{"prompt":"print the log"}')) as {
      runId: string;
    };
    for (let index = 0; index < clients; index++) sockets.push(silentClient(port, runId, index % 2 === 1));
    let status = 'running';
    // The relay closes a client that took nothing for 30 s; ten minutes means it never will.
    const deadline = Date.now() + 10 * 60 * 1000;
    while ((status === 'running' || closed() < clients) && Date.now() < deadline) {
      await sleep(500);
      if (child.exitCode !== null || child.signalCode !== null) {
        const why = stderr().trim().split('\n').at(-1) ?? '';
        return row(`the relay exited (${child.exitCode ?? child.signalCode}): ${why.slice(0, 120)}`, 0);
      }
      peak = Math.max(peak, peakRssMb(child.pid ?? 0));
      // The list, not the run's summary: a summary reads the run's log, which is not what is measured here.
      const { runs } = JSON.parse(await call(port, 'GET', '/api/runs')) as {
        runs: { runId: string; status: string }[];
      };
      status = runs.find((listed) => listed.runId === runId)?.status ?? 'missing';
    }
    peak = Math.max(peak, peakRssMb(child.pid ?? 0));
    return row(status, (performance.now() - started) / 1000);
  } catch (error) {
    return row(`failed: ${String(error)}`, (performance.now() - started) / 1000);
  } finally {
    for (const socket of sockets) socket.destroy();
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the rows, generating their logs under `corpus/generated/` on first use.
 *
 * @throws Error when the CLI is not built (`pnpm build`).
 */
export async function runRelayMemory(scale: RelayMemoryScale, log: Log): Promise<RelayMemoryRow[]> {
  if (!existsSync(CLI_BUILT)) throw new Error('the CLI is not built: run `pnpm build` first');
  const recordsLog = join(
    REPOSITORY_ROOT,
    `corpus/generated/relay-${scale.records}-records-of-${scale.recordMb}mb.ndjson`,
  );
  const textLog = join(REPOSITORY_ROOT, `corpus/generated/one-session-${scale.textMb}mb-text.ndjson`);
  await ensureLargeRecordsLog(recordsLog, scale.records, scale.recordMb * 1e6, log);
  await ensureHugeTextLog(textLog, scale.textMb * 1e6, log);
  const large = `${scale.records} records of ${scale.recordMb} MB of text`;
  return [
    await measureRun(large, recordsLog, 0, log),
    await measureRun(large, recordsLog, scale.clients, log),
    await measureRun(`${scale.textMb} MB of text in records of 16 KiB`, textLog, 0, log),
  ];
}

/** The rows as Markdown. */
export function formatRelayMemoryRows(rows: readonly RelayMemoryRow[]): string {
  return `${[
    'Relay memory: `cursor-stream serve` (the built CLI as installed), one run per fresh server; peak RSS of the server.',
    '',
    '| run | log MB | clients that never read | closed by the relay | run | peak RSS MB | time s |',
    '|---|---:|---:|---:|---|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.run} | ${(row.logBytes / 1e6).toFixed(1)} | ${row.silentClients} | ${row.closedClients} | ` +
        `${row.status} | ${row.peakRssMb.toFixed(1)} | ${row.seconds.toFixed(1)} |`,
    ),
  ].join('\n')}\n`;
}
