import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { runAgent } from '@cursor-stream/node';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { type FakeAgentCall, installFakeAgent, readCall } from '@cursor-stream/test-kit/fake-agent';
import { scratchFolder } from '@cursor-stream/test-kit/scratch';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fakeRun } from './support.ts';

const scratch = scratchFolder('node');
let agent = '';

beforeAll(() => {
  agent = installFakeAgent(scratch.dir);
});
afterAll(() => scratch.remove());

/** Whether a process is gone: no such process, or a zombie left for its new parent to reap. */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    // Field 3 of /proc/PID/stat is the state; `Z` is a process that has ended and is only waiting to be reaped.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Waits (a bounded while) for a process to be gone, since a signal is delivered asynchronously. */
async function goneSoon(pid: number): Promise<boolean> {
  for (let tries = 0; tries < 100; tries++) {
    if (isGone(pid)) return true;
    await sleep(50);
  }
  return isGone(pid);
}

/** Ends a process the test started, if a failing check left it behind. */
function reap(pid: number | null): void {
  if (pid !== null && !isGone(pid)) process.kill(pid, 'SIGKILL');
}

const ends = [
  { how: 'a normal end', vars: { FAKE_AGENT_REPLAY: DOCS_EXAMPLE }, options: {}, code: null },
  {
    how: 'a failure',
    vars: { FAKE_AGENT_REPLAY: DOCS_EXAMPLE, FAKE_AGENT_EXIT: '3' },
    options: {},
    code: 'exit-nonzero',
  },
  { how: 'a timeout', vars: { FAKE_AGENT_HANG: 'before' }, options: { timeoutMs: 1500 }, code: 'timeout' },
  { how: 'a cancel', vars: { FAKE_AGENT_HANG: 'before' }, options: {}, code: 'cancelled' },
  { how: 'an abort', vars: { FAKE_AGENT_HANG: 'before' }, options: {}, code: 'cancelled', abort: true },
] as const;

/** Runs the fake agent with its grandchildren; stops it as `end` says; gives its result and its record. */
async function runWithGrandchildren(end: (typeof ends)[number], extra: Record<string, string>, name: string) {
  const record = join(scratch.dir, `tree-${name}.json`);
  const abort = new AbortController();
  const run = runAgent(
    'hi',
    fakeRun(
      agent,
      {
        ...end.vars,
        FAKE_AGENT_GRANDCHILD: '1',
        FAKE_AGENT_DETACHED_GRANDCHILD: '1',
        ...extra,
        FAKE_AGENT_RECORD: record,
      },
      { ...end.options, signal: abort.signal },
    ),
  );
  if (end.code === 'cancelled') {
    // Stop once the agent has started its grandchildren (it records their pids right after).
    for (let tries = 0; tries < 200 && !hasRecord(record); tries++) await sleep(25);
    if ('abort' in end) abort.abort();
    else run.cancel();
  }
  const result = await run.collect();
  return { result, call: readCall(record) };
}

describe.skipIf(process.platform === 'win32')('the whole process tree ends with the run', () => {
  test.each(ends)('a grandchild (sleep 300) is gone after $how', async (end) => {
    const { result, call } = await runWithGrandchildren(end, {}, `group-${end.how}`);
    try {
      expect(result.error?.code ?? null).toBe(end.code);
      expect(call.grandchildPid).toBeTypeOf('number');
      expect(await goneSoon(call.grandchildPid ?? -1)).toBe(true);
    } finally {
      reap(call.grandchildPid);
      reap(call.detachedGrandchildPid);
    }
  });
});

describe.runIf(process.platform === 'linux')('what left the process group ends with the run too', () => {
  test.each(ends)('a grandchild in a session of its own (setsid) is gone after $how', async (end) => {
    const { result, call } = await runWithGrandchildren(end, {}, `setsid-${end.how}`);
    try {
      expect(result.error?.code ?? null).toBe(end.code);
      expect(call.detachedGrandchildPid).toBeTypeOf('number');
      expect(await goneSoon(call.detachedGrandchildPid ?? -1)).toBe(true);
    } finally {
      reap(call.grandchildPid);
      reap(call.detachedGrandchildPid);
    }
  });

  test.each(ends.filter((end) => end.code === 'timeout' || end.code === 'cancelled'))(
    'one that also cleared its environment is found by its ancestry when the run is stopped: $how',
    async (end) => {
      const extra = { FAKE_AGENT_HIDDEN_GRANDCHILD: '1' };
      const { call } = await runWithGrandchildren(end, extra, `hidden-${end.how}`);
      try {
        expect(call.hiddenGrandchildPid).toBeTypeOf('number');
        expect(await goneSoon(call.hiddenGrandchildPid ?? -1)).toBe(true);
      } finally {
        reap(call.grandchildPid);
        reap(call.detachedGrandchildPid);
        reap(call.hiddenGrandchildPid);
      }
    },
  );
});

// The host runs in this process's own Node with the TypeScript loader, so that its signal is its own.
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;

/** Runs the host fixture, which ends itself mid-run as `how` says; gives what the agent recorded. */
function hostThatEnds(how: 'exit' | 'kill'): {
  status: number | null;
  signal: string | null;
  stderr: string;
  call: FakeAgentCall;
} {
  const record = join(scratch.dir, `host-${how}.json`);
  const script = join(import.meta.dirname, 'fixtures/exit-during-run.ts');
  const host = spawnSync(
    process.execPath,
    ['--import', TSX_LOADER, '--conditions=@cursor-stream/source', script, agent, record, how],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return { status: host.status, signal: host.signal, stderr: host.stderr, call: readCall(record) };
}

describe.skipIf(process.platform === 'win32')('a host that exits mid-run', () => {
  test('takes the agent and its grandchild with it', async () => {
    const { status, stderr, call } = hostThatEnds('exit');
    try {
      expect([status, stderr]).toEqual([0, '']);
      expect(await goneSoon(call.pid)).toBe(true);
      expect(await goneSoon(call.grandchildPid ?? -1)).toBe(true);
    } finally {
      reap(call.pid);
      reap(call.grandchildPid);
      reap(call.detachedGrandchildPid);
    }
  });
});

describe.runIf(process.platform === 'linux')('a host killed with SIGKILL mid-run', () => {
  test('the watchdog takes the agent and its grandchildren with it, the one that called setsid too', async () => {
    const exited = hostThatEnds('exit');
    const killed = hostThatEnds('kill');
    try {
      expect(await goneSoon(exited.call.detachedGrandchildPid ?? -1)).toBe(true);
      expect(killed.signal).toBe('SIGKILL');
      expect(await goneSoon(killed.call.pid)).toBe(true);
      expect(await goneSoon(killed.call.grandchildPid ?? -1)).toBe(true);
      expect(await goneSoon(killed.call.detachedGrandchildPid ?? -1)).toBe(true);
    } finally {
      for (const { call } of [exited, killed]) {
        reap(call.pid);
        reap(call.grandchildPid);
        reap(call.detachedGrandchildPid);
      }
    }
  });
});

function hasRecord(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}
