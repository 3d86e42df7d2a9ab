import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CanonicalEvent, createNormalizer } from '@cursor-stream/core';
import type { RunAgentOptions } from '@cursor-stream/node';

/** The fake agent script the tests run as cursor-agent. */
export const FAKE_AGENT = join(import.meta.dirname, 'fixtures/fake-agent.mjs');

/** This repository's recordings. */
export const CORPUS_DIR = join(import.meta.dirname, '../../../corpus');

/** The recording most tests replay: one session with tool calls and a result. */
export const DOCS_EXAMPLE = join(CORPUS_DIR, 'official/docs-example-zh.ndjson');

/** The session id of {@link DOCS_EXAMPLE}. */
export const DOCS_EXAMPLE_SESSION = 'c6b62c6f-7ead-4fd6-9922-e952131177ff';

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
  writeFileSync(path, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  return path;
}

/** A scratch folder removed by the returned function. */
export function scratchDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cursor-stream-node-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Puts an executable named `name` in `dir` that runs the fake agent. `exec` hands the process over, so signals
 * reach the fake agent itself.
 */
export function installFakeAgent(dir: string, name = 'cursor-agent'): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(FAKE_AGENT)} "$@"\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

/** What the fake agent recorded about how it was called. */
export interface FakeAgentCall {
  argv: string[];
  cwd: string;
  apiKey: string | null;
  pid: number;
  /** Everything read on standard input. */
  stdin: string;
  /** The `sleep 300` it started, with `FAKE_AGENT_GRANDCHILD`. */
  grandchildPid: number | null;
  /** The `sleep 300` in a session of its own, with `FAKE_AGENT_DETACHED_GRANDCHILD`. */
  detachedGrandchildPid: number | null;
  /** The `sleep 300` in a session of its own and an empty environment, with `FAKE_AGENT_HIDDEN_GRANDCHILD`. */
  hiddenGrandchildPid: number | null;
}

/** Reads what the fake agent recorded. */
export function readCall(path: string): FakeAgentCall {
  return JSON.parse(readFileSync(path, 'utf8')) as FakeAgentCall;
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
