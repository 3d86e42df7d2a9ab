/**
 * The relay's memory on a run of large records, with clients that never read: `cursor-stream serve` in a child
 * process, and its peak resident memory once the run has ended. Neither the records' number nor the clients' may
 * count: the run keeps its newest large event only, and the clients share the bytes of the one they are stuck on.
 * (`pnpm bench --relay-memory` measures the same at a larger scale.) No timing is asserted.
 */

import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { postRun, scratch, startServe, UPGRADE_HEADERS, until } from './support.ts';

const space = scratch();
afterAll(() => space.remove());

const RECORDS = 8;
const RECORD_BYTES = 16 * 1024 * 1024;
const CLIENTS = 6;

/** A log of one session whose text comes in {@link RECORDS} records of {@link RECORD_BYTES} each. */
function writeLog(file: string): void {
  const session = '"session_id":"s-memory"';
  const text = 'Larger than any socket buffer. '.repeat(RECORD_BYTES / 31 + 1).slice(0, RECORD_BYTES);
  const lines = [`{"type":"system","subtype":"init","model":"Auto",${session}}\n`];
  for (let index = 0; index < RECORDS; index++)
    lines.push(
      `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"${index} ${text}"}]},${session}}\n`,
    );
  lines.push(
    `{"type":"result","subtype":"success","is_error":false,"result":"Done.","duration_ms":1,${session}}\n`,
  );
  writeFileSync(file, lines.join(''));
}

/** A client that asks for the run's events and never reads a byte of them. */
function silentClient(url: string, path: string, webSocket: boolean): Socket {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  const upgrade = webSocket ? UPGRADE_HEADERS.map((header) => `${header}\r\n`).join('') : '';
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${upgrade}\r\n`);
  socket.pause();
  return socket;
}

/** The peak resident memory of a process, MB (10^6 bytes). */
function peakRssMb(pid: number): number {
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return (Number(kb) * 1024) / 1e6;
}

const hasProc = existsSync('/proc/self/status');

describe.skipIf(!hasProc)(`serve's memory${hasProc ? '' : ' (skipped: no /proc to read it from)'}`, () => {
  test(`a run of ${RECORDS} records of 16 MiB with ${CLIENTS} clients that never read stays well under what keeping them would take`, async () => {
    const log = join(space.dir, 'large-records.ndjson');
    writeLog(log);
    const agent = join(space.dir, 'print-log.sh');
    writeFileSync(agent, `#!/bin/sh\ncat > /dev/null\nexec cat ${JSON.stringify(log)}\n`);
    chmodSync(agent, 0o755);
    const server = await startServe(['--data-dir', join(space.dir, 'data'), '--agent', agent]);
    const sockets: Socket[] = [];
    try {
      const runId = await postRun(server.url, { prompt: 'print it' });
      for (let index = 0; index < CLIENTS; index++) {
        const path = index % 2 === 0 ? `/api/runs/${runId}/events` : `/api/runs/${runId}/ws`;
        sockets.push(silentClient(server.url, path, index % 2 === 1));
      }
      // The list, not the run's summary, which would read the whole log on each call. A kept-alive connection
      // the busy server closed is only tried again.
      await until(
        async () => {
          const listed = await fetch(`${server.url}/api/runs`).then(
            async (response) => (await response.json()) as { runs: { runId: string; status: string }[] },
            () => ({ runs: [] }),
          );
          return listed.runs.find((run) => run.runId === runId)?.status === 'succeeded';
        },
        'the run to succeed',
        120_000,
      );
      const peak = peakRssMb(server.child.pid ?? 0);
      // The README's bound, 300 MB and 8 times a record for the run and 3 times more for clients stuck on one, is
      // 485 MB here; the assertion leaves a little more room for a busy machine's collector. A ring that kept eight
      // events whatever their size (their text and JSON, 256 MiB here) passes 600 MB.
      expect(peak).toBeLessThan(100 + (25 * RECORD_BYTES) / 1e6);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.child.kill('SIGTERM');
    }
  }, 180_000);
});
