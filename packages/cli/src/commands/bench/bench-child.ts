/**
 * The child process of `cursor-stream bench`: runs one row once on one log and prints its result as one JSON line,
 * `{ ok: true, value: BenchRun }` or `{ ok: false, error: CliError }`. Every run gets a fresh process so that no run
 * inherits another's JIT state, heap or caches, as in the project's benchmark.
 */

import { cliError, type Result } from '../../io/cli-error.ts';
import { type BenchRun, isBenchRowName, runBenchRow } from './bench-rows.ts';
import type { BenchChildTask } from './spawn-bench-run.ts';

async function run(argument: string | undefined): Promise<Result<BenchRun>> {
  const task = JSON.parse(argument ?? '{}') as Partial<BenchChildTask>;
  if (
    task.row === undefined ||
    !isBenchRowName(task.row) ||
    task.path === undefined ||
    task.options === undefined
  )
    return { ok: false, error: cliError('usage', `bad bench task: ${argument}`) };
  return runBenchRow(task.row, task.path, task.options);
}

process.stdout.write(`${JSON.stringify(await run(process.argv[2]))}\n`);
