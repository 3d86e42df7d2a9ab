/**
 * The relay under load (a benchmark, not a test): `cursor-stream serve` with a fast fake agent, 10 runs of about
 * 10,000 events each and 10 SSE clients per run (100 in all) connected as the runs start. Every client must get every
 * event of its run exactly once, in order: the same ids and the same JSON, line for line, as `cursor-stream
 * normalize` gives for the run's log. Reports events delivered per second and the server's peak RSS.
 *
 * Run with `pnpm bench:relay` after `pnpm build` (`--runs N --clients N --events N` change the load).
 */

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { get, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { installFakeAgent } from '@cursor-stream/test-kit/fake-agent';
import { CLI_BIN } from '@cursor-stream/test-kit/run-cli';
import { scratchFolder } from '@cursor-stream/test-kit/scratch';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    clients: { type: 'string', default: '10' },
    events: { type: 'string', default: '10000' },
  },
});
const RUNS = Number(values.runs);
const CLIENTS_PER_RUN = Number(values.clients);
const EVENTS = Number(values.events);

/** A recording of `events` events: init, the prompt, reasoning deltas and assistant text, the result. */
function writeRecording(path: string, events: number): void {
  const session = { session_id: 'load-session' };
  const lines: object[] = [
    {
      type: 'system',
      subtype: 'init',
      model: 'Auto',
      cwd: '/w',
      apiKeySource: 'login',
      permissionMode: 'default',
      ...session,
    },
    { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'load' }] }, ...session },
  ];
  for (let i = 0; lines.length < events - 1; i++) {
    lines.push({ type: 'thinking', subtype: 'delta', text: `step ${i} of the plan; `, ...session });
  }
  lines.push({ type: 'result', subtype: 'success', is_error: false, result: '', duration_ms: 1, ...session });
  writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
}

function startServer(
  dataDir: string,
  agent: string,
  recording: string,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    [CLI_BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--agent', agent],
    {
      env: {
        ...process.env,
        FAKE_AGENT_REPLAY: recording,
        FAKE_AGENT_CHUNK_BYTES: '16384',
        FAKE_AGENT_DELAY_MS: '2',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const port = /serving on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)?.[1];
      if (port !== undefined) resolve({ child, port: Number(port) });
    });
    child.on('exit', () => reject(new Error(`serve exited: ${stderr}`)));
  });
}

function postRun(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/runs',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (text: string) => {
          body += text;
        });
        res.on('end', () => resolve((JSON.parse(body) as { runId: string }).runId));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ prompt: 'load' }));
  });
}

/** What one client must receive: each event's id and JSON, in order. */
interface Expected {
  ids: string[];
  data: string[];
}

/** One SSE client; resolves with the number of events it checked, or rejects at the first difference. */
function client(port: number, runId: string, want: Expected): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ port, host: '127.0.0.1', path: `/api/runs/${runId}/events`, agent: false }, (res) => {
      let buffer = '';
      let count = 0;
      let failed = false;
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        buffer += text;
        let end = buffer.indexOf('\n\n');
        while (end !== -1 && !failed) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (id !== undefined && data !== undefined) {
            if (id !== want.ids[count] || data !== want.data[count]) {
              failed = true;
              reject(new Error(`${runId}: event ${count} differs (id ${id})`));
              res.destroy();
            }
            count += 1;
          }
          end = buffer.indexOf('\n\n');
        }
      });
      res.on('end', () => {
        if (failed) return;
        if (count !== want.ids.length)
          reject(new Error(`${runId}: ${count} events, want ${want.ids.length}`));
        else resolve(count);
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** The ids and JSON `cursor-stream normalize` gives for a log, the ids as the relay forms them from `loc`. */
function expectedOf(log: string): Expected {
  const out = execFileSync(process.execPath, [CLI_BIN, 'normalize', log], {
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  const data = out.split('\n').filter((line) => line !== '');
  const ids: string[] = [];
  let previous: { offset: number; index: number } | undefined;
  for (const line of data) {
    const offset = (JSON.parse(line) as { loc?: { offset: number } }).loc?.offset;
    const id =
      offset !== undefined && (previous === undefined || offset > previous.offset)
        ? { offset, index: 0 }
        : { offset: previous?.offset ?? 0, index: (previous?.index ?? -1) + 1 };
    ids.push(id.index === 0 ? String(id.offset) : `${id.offset}:${id.index}`);
    previous = id;
  }
  return { ids, data };
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  return Math.round((kb * 1024) / 1e6);
}

const scratch = scratchFolder('relay-load');
const dir = scratch.dir;
const agent = installFakeAgent(dir, 'fake-agent.sh');
const recording = join(dir, 'load.ndjson');
writeRecording(recording, EVENTS);
const { child, port } = await startServer(join(dir, 'data'), agent, recording);
try {
  // The relay logs the agent's stdout byte for byte, so each run's log is the recording: what every client must get
  // is what `normalize` gives for it (each log is compared with it at the end).
  const want = expectedOf(recording);
  const load = loadavg()[0]?.toFixed(2);
  const started = performance.now();
  const runIds = await Promise.all(Array.from({ length: RUNS }, () => postRun(port)));
  const clients = runIds.flatMap((runId) =>
    Array.from({ length: CLIENTS_PER_RUN }, () => client(port, runId, want)),
  );
  const settled = await Promise.allSettled(clients);
  const seconds = (performance.now() - started) / 1000;
  const failures = settled.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  const bytes = readFileSync(recording);
  for (const runId of runIds) {
    if (!readFileSync(join(dir, 'data/runs', `${runId}.ndjson`)).equals(bytes))
      failures.push(`${runId}: log differs`);
  }
  const events = settled.reduce((sum, result) => sum + (result.status === 'fulfilled' ? result.value : 0), 0);
  const rss = peakRssMb(child.pid ?? 0);
  console.log(
    `${RUNS} runs of ${want.ids.length} events, ${RUNS * CLIENTS_PER_RUN} SSE clients: ${events} events delivered in ${seconds.toFixed(2)} s`,
  );
  console.log(
    `events/s: ${Math.round(events / seconds)}; server peak RSS: ${rss} MB; load average before: ${load}`,
  );
  console.log(
    failures.length === 0
      ? 'every client got every event of its run once, in order'
      : `FAILED: ${failures.join('; ')}`,
  );
  process.exitCode = failures.length === 0 ? 0 : 1;
} finally {
  child.kill('SIGTERM');
  scratch.remove();
}
