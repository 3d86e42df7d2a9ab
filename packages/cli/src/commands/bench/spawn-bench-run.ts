/** Runs one row of `cursor-stream bench` in a fresh Node process and reads back its result. */

import { fileURLToPath } from 'node:url';
import { cliError, type Result } from '../../io/cli-error.ts';
import type { InputOptions } from '../../io/options.ts';
import type { BenchRowName, BenchRun } from './bench-rows.ts';
import { runInFreshProcess } from './measurement.ts';

/** What the child runs: one row on one log. */
export interface BenchChildTask {
  row: BenchRowName;
  path: string;
  options: InputOptions;
}

// Built output runs the compiled child; a run from source runs the TypeScript one (under a loader such as tsx).
const CHILD = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? './bench-child.ts' : './bench-child.js', import.meta.url),
);

/** Runs the task in a child process; a child that fails or prints no result is a `read-failed` error. */
export async function spawnBenchRun(task: BenchChildTask): Promise<Result<BenchRun>> {
  const outcome = await runInFreshProcess(CHILD, [JSON.stringify(task)], { nodeFlags: process.execArgv });
  if (outcome.ok) return outcome.value as Result<BenchRun>;
  const detail = (outcome.stderr.trim().split('\n')[0] ?? '') || (outcome.failure ?? 'no result');
  return { ok: false, error: cliError('read-failed', `benchmark run failed: ${detail}`, task.path) };
}
