/** Runs one row of `cursor-stream bench` in a fresh Node process and reads back its result. */

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cliError, type Result } from '../../io/cli-error.ts';
import type { InputOptions } from '../../io/options.ts';
import type { BenchRowName, BenchRun } from './bench-rows.ts';

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
export function spawnBenchRun(task: BenchChildTask): Promise<Result<BenchRun>> {
  const args = [...process.execArgv, CHILD, JSON.stringify(task)];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (error === null && line.startsWith('{')) {
        resolve(JSON.parse(line) as Result<BenchRun>);
        return;
      }
      const detail = (stderr.trim().split('\n')[0] ?? '') || (error?.message ?? 'no result');
      resolve({ ok: false, error: cliError('read-failed', `benchmark run failed: ${detail}`, task.path) });
    });
  });
}
