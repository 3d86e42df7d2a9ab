import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runAgent } from '@cursor-stream/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DOCS_EXAMPLE, fakeRun, installFakeAgent, readCall, scratchDir } from './support.ts';

const scratch = scratchDir();
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

const ends = [
  { how: 'a normal end', vars: { FAKE_AGENT_REPLAY: DOCS_EXAMPLE }, options: {}, code: null },
  { how: 'a timeout', vars: { FAKE_AGENT_HANG: 'before' }, options: { timeoutMs: 1500 }, code: 'timeout' },
  { how: 'a cancel', vars: { FAKE_AGENT_HANG: 'before' }, options: {}, code: 'cancelled' },
] as const;

describe.skipIf(process.platform === 'win32')('the whole process tree ends with the run', () => {
  test.each(ends)('a grandchild (sleep 300) is gone after $how', async ({ vars, options, code }) => {
    const record = join(scratch.dir, `tree-${code}.json`);
    const run = runAgent(
      'hi',
      fakeRun(agent, { ...vars, FAKE_AGENT_GRANDCHILD: '1', FAKE_AGENT_RECORD: record }, options),
    );
    if (code === 'cancelled') {
      // Cancel once the agent has started its grandchild (it records the pid right after).
      for (let tries = 0; tries < 200 && !hasRecord(record); tries++) await sleep(25);
      run.cancel();
    }
    const result = await run.collect();
    expect(result.error?.code ?? null).toBe(code);
    const { grandchildPid } = readCall(record);
    expect(grandchildPid).toBeTypeOf('number');
    expect(await goneSoon(grandchildPid ?? -1)).toBe(true);
  });
});

const TSX_CLI = createRequire(import.meta.url).resolve('tsx/cli');

describe.skipIf(process.platform === 'win32')('a host that exits mid-run', () => {
  test('takes the agent and its grandchild with it', async () => {
    const record = join(scratch.dir, 'host-exit.json');
    const script = join(import.meta.dirname, 'fixtures/exit-during-run.ts');
    const host = spawnSync(
      process.execPath,
      [TSX_CLI, '--conditions=@cursor-stream/source', script, agent, record],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect([host.status, host.stderr]).toEqual([0, '']);
    const { pid, grandchildPid } = readCall(record);
    expect(await goneSoon(pid)).toBe(true);
    expect(await goneSoon(grandchildPid ?? -1)).toBe(true);
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
