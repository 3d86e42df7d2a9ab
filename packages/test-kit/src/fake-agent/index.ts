/**
 * The fake agent: a stand-in for cursor-agent that replays a recording and then behaves as its `FAKE_AGENT_*`
 * variables tell it (see fake-agent.mjs), so that every path of a run can be tested with a real child process.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fake agent's script: plain Node, no dependencies. */
export const FAKE_AGENT = join(import.meta.dirname, 'fake-agent.mjs');

/**
 * Puts an executable named `name` in `dir` that runs the fake agent, and gives its path. `exec` hands the process
 * over, so signals reach the fake agent itself.
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

/** What the fake agent recorded about how it was called, with `FAKE_AGENT_RECORD`. */
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
