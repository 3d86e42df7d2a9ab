import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CanonicalEvent, createNormalizer } from '@cursor-stream/core';
import type { RunAgentOptions } from '@cursor-stream/node';
import { ndjson } from '@cursor-stream/test-kit/ndjson';

/**
 * Writes a recording of a run that stopped before its answer, as a plan-limited account's does (`system/init` and
 * the prompt, then the agent exits), and returns its path.
 */
export function initAndPromptOnly(dir: string): string {
  const path = join(dir, 'init-and-prompt.ndjson');
  const session = { session_id: '0b8e4c2a-6d1f-4e3b-9a57-c2e0f4a6b8d1' };
  const records = [
    {
      type: 'system',
      subtype: 'init',
      apiKeySource: 'login',
      cwd: '/w',
      ...session,
      model: 'Auto',
      permissionMode: 'default',
    },
    { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'hi' }] }, ...session },
  ];
  writeFileSync(path, ndjson(records));
  return path;
}

/** Options that run `binary` with the fake agent's variables set. */
export function fakeRun(
  binary: string,
  vars: Record<string, string>,
  options: RunAgentOptions = {},
): RunAgentOptions {
  return { binary, killGraceMs: 1000, ...options, env: { ...vars, ...options.env } };
}

/** The events of a recording normalized in this process, for comparison with a run's. */
export function normalizeFile(path: string): CanonicalEvent[] {
  const normalizer = createNormalizer();
  return [...normalizer.feed(readFileSync(path)), ...normalizer.end()];
}

/** Whether a process with this id exists (a reaped child does not). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The types of some events, for a compact comparison of their order. */
export function typesOf(events: readonly CanonicalEvent[]): string[] {
  return events.map((event) => event.type);
}
