import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInFreshProcess } from 'cursor-stream/measurement';
import type { Chunking } from './inputs.ts';
import type { RunResult } from './run-once.ts';

/** The repository root: where `tsx` resolves from, and the base of default corpus paths. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A path inside the repository as the repository names it, so that a report holds no machine path. */
export function displayPath(file: string): string {
  const inside = relative(REPOSITORY_ROOT, file);
  return inside.startsWith('..') || isAbsolute(inside) ? file : inside;
}
const CHILD_RUNNER = fileURLToPath(new URL('./child-runner.ts', import.meta.url));
/** Runs TypeScript sources directly: tsx for the syntax, the source condition to reach workspace packages' src. */
const NODE_FLAGS = ['--import', 'tsx', '--conditions=@cursor-stream/source'] as const;
/** A row that takes longer than this on one file is stuck (e.g. waiting for an end that never comes). */
const RUN_TIMEOUT_MS = 10 * 60 * 1000;

/** Runs one row once in a fresh Node process. Rejects when the process fails or prints no result. */
export async function spawnRun(
  approach: string,
  file: string,
  chunking: Chunking,
  digest: boolean,
): Promise<RunResult> {
  const args = ['--approach', approach, '--file', file, '--chunking', chunking];
  if (digest) args.push('--digest');
  const outcome = await runInFreshProcess(CHILD_RUNNER, args, {
    nodeFlags: NODE_FLAGS,
    cwd: REPOSITORY_ROOT,
    timeoutMs: RUN_TIMEOUT_MS,
  });
  if (!outcome.ok)
    throw new Error(`${approach} failed: ${outcome.failure ?? 'no result'}\n${outcome.stderr.trim()}`);
  return outcome.value as RunResult;
}
