import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type HarnessV1StreamPart, harnessV1StreamPartSchema } from '@ai-sdk/harness';
import type { CursorHarness } from '@cursor-stream/ai-sdk/harness';

/** The stand-in for cursor-agent that replays a recording (see its header for the variables it reads). */
export const FAKE_AGENT = join(import.meta.dirname, '../../node/test/fixtures/fake-agent.mjs');

/** What the fake agent's `create-chat` prints unless told otherwise. */
export const FAKE_CHAT_ID = '9f1c2d3e-0000-4000-8000-00000000c0de';

/** A scratch folder: `bin` with the fake agent as `cursor-agent`, `sandbox` as a sandbox's root, `tmp` for it. */
export function harnessScratch(): {
  dir: string;
  agent: string;
  sandbox: string;
  tmp: string;
  remove(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'cursor-stream-harness-'));
  const bin = join(dir, 'bin');
  const sandbox = join(dir, 'sandbox');
  const tmp = join(dir, 'tmp');
  for (const folder of [bin, sandbox, tmp]) mkdirSync(folder);
  const agent = join(bin, 'cursor-agent');
  // `exec` hands the process over, so the agent's pid is the one the sandbox started and kills.
  writeFileSync(
    agent,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(FAKE_AGENT)} "$@"\n`,
  );
  chmodSync(agent, 0o755);
  return { dir, agent, sandbox, tmp, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What the fake agent recorded about its last start. */
export interface FakeAgentCall {
  argv: string[];
  cwd: string;
  apiKey: string | null;
  pid: number;
  stdin: string;
  grandchildPid: number | null;
}

/** Reads what the fake agent recorded (`FAKE_AGENT_RECORD`). */
export function readCall(path: string): FakeAgentCall {
  return JSON.parse(readFileSync(path, 'utf8')) as FakeAgentCall;
}

/** Waits (a bounded while) for the fake agent to record its start. */
export async function calledSoon(path: string): Promise<FakeAgentCall> {
  for (let tries = 0; tries < 200 && !existsSync(path); tries++) await sleep(25);
  return readCall(path);
}

/**
 * The harness with every part its sessions emit kept in `parts`, in order, as the harness emitted them (before the
 * agent reads them).
 */
export function recordingParts(harness: CursorHarness): {
  harness: CursorHarness;
  parts: HarnessV1StreamPart[];
} {
  const parts: HarnessV1StreamPart[] = [];
  const keep = <T extends { emit: (part: HarnessV1StreamPart) => void }>(options: T): T => ({
    ...options,
    emit: (part: HarnessV1StreamPart) => {
      parts.push(part);
      options.emit(part);
    },
  });
  return {
    parts,
    harness: {
      ...harness,
      async doStart(options) {
        const session = await harness.doStart(options);
        return {
          ...session,
          doPromptTurn: (turn) => session.doPromptTurn(keep(turn)),
          doContinueTurn: (turn) => session.doContinueTurn(keep(turn)),
        };
      },
    },
  };
}

/** The parts `harnessV1StreamPartSchema` rejects, each with the schema's issues. */
export function schemaProblems(parts: readonly HarnessV1StreamPart[]): unknown[] {
  return parts.flatMap((part) => {
    const checked = harnessV1StreamPartSchema.safeParse(part);
    return checked.success ? [] : [{ part, issues: checked.error.issues }];
  });
}

/** The `usage` of a recording's `result` line, as the log writes it. */
export function resultUsageOf(path: string): Record<string, number> {
  const line = readFileSync(path, 'utf8')
    .split('\n')
    .findLast((text) => text.startsWith('{"type":"result"'));
  if (line === undefined) throw new Error(`${path} has no result line`);
  return (JSON.parse(line) as { usage: Record<string, number> }).usage;
}

/** Whether a process is gone: no such process, or a zombie left for its new parent to reap. */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    // Field 3 of /proc/PID/stat is the state; `Z` is a process that has ended and only waits to be reaped.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Waits (a bounded while) for a process to be gone, since a signal is delivered asynchronously. */
export async function goneSoon(pid: number): Promise<boolean> {
  for (let tries = 0; tries < 100; tries++) {
    if (isGone(pid)) return true;
    await sleep(50);
  }
  return isGone(pid);
}

/** Ends a process a failing check left behind. */
export function reap(pid: number | null | undefined): void {
  if (pid !== null && pid !== undefined && !isGone(pid)) process.kill(pid, 'SIGKILL');
}
