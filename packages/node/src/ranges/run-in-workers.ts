/**
 * Running many tasks (such as one per file) across cores, on a pool of worker threads. What a task does is the runner
 * module's, which each worker loads by URL. The pool's code is loaded only when there are tasks.
 */

import type { Progress } from '../logs/index.ts';

/** How to run the tasks, and who hears of each. */
export interface WorkerPoolOptions<Outcome> {
  /** Worker threads at most. */
  readonly jobs: number;
  /**
   * The task runner module, loaded by each worker: it exports `createTaskRunner` (see `CreateTaskRunner`). A bundler
   * must emit it as a file of its own, where this URL finds it.
   */
  readonly runner: URL;
  /** What the runner is made from; copied to each worker, so plain data. */
  readonly setup?: unknown;
  /** Told the bytes the tasks read, every few MiB. */
  readonly progress?: Progress | undefined;
  /** Receives each task's outcome as it finishes. */
  onOutcome(index: number, outcome: Outcome): void;
  /**
   * Task `index` has no outcome: its runner threw, or its worker stopped (a crash, a kill); a fresh worker takes the
   * tasks left.
   */
  onFailure(index: number, error: unknown): void;
  /** The pool worker module: the `pool-worker` beside the pool by default. */
  readonly workerUrl?: URL | undefined;
}

/**
 * Runs `tasks` (plain data) on up to `jobs` worker threads, each worker taking the next task when it finishes one.
 * Resolves when every task has an outcome or a failure, each told with the task's index in `tasks`. A worker that
 * dies fails its current task only.
 */
export async function runInWorkers<Task, Outcome>(
  tasks: readonly Task[],
  pool: WorkerPoolOptions<Outcome>,
): Promise<void> {
  if (tasks.length === 0) return;
  const { runPool } = await import('./worker-pool.ts');
  await runPool(tasks, pool);
}
