/**
 * A pool of worker threads, each taking the next task when it finishes one. Outcomes come back tagged with their
 * task's index, so the caller can use them in task order whatever order they finish in.
 */

import { Worker } from 'node:worker_threads';
import { LOG_WORKER_RESOURCE_LIMITS } from '../logs/index.ts';
import type { PoolMessage, PoolTask, PoolWorkerSetup } from './pool-protocol.ts';
import type { WorkerPoolOptions } from './run-in-workers.ts';

// Built output runs the built (or bundled) worker beside this module; a run from source (tests, tsx) runs the
// TypeScript one.
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './pool-worker.ts' : './pool-worker.js',
  import.meta.url,
);

/** Runs the tasks on the pool's workers; see `runInWorkers`. */
export function runPool<Task, Outcome>(
  tasks: readonly Task[],
  pool: WorkerPoolOptions<Outcome>,
): Promise<void> {
  const setup: PoolWorkerSetup = { runner: pool.runner.href, setup: pool.setup };
  let next = 0;
  let finished = 0;
  return new Promise((resolve) => {
    if (tasks.length === 0) {
      resolve();
      return;
    }
    function settle(report: () => void): void {
      report();
      finished += 1;
      if (finished === tasks.length) resolve();
    }
    function start(): void {
      const worker = new Worker(pool.workerUrl ?? WORKER_URL, {
        workerData: setup,
        resourceLimits: LOG_WORKER_RESOURCE_LIMITS,
      });
      let current: number | undefined;
      function feed(): void {
        current = next < tasks.length ? next : undefined;
        next += 1;
        if (current === undefined) void worker.terminate();
        else worker.postMessage({ index: current, task: tasks[current] } satisfies PoolTask);
      }
      worker.on('message', (message: PoolMessage) => {
        if (message.type === 'progress') {
          pool.progress?.advance(message.bytes);
          return;
        }
        current = undefined;
        const { index } = message;
        if (message.type === 'done') settle(() => pool.onOutcome(index, message.outcome as Outcome));
        else settle(() => pool.onFailure(index, new Error(message.message)));
        feed();
      });
      let failure: unknown = new Error('the worker stopped');
      worker.on('error', (error) => {
        failure = error;
      });
      worker.on('exit', () => {
        if (current === undefined) return;
        const index = current;
        settle(() => pool.onFailure(index, failure));
        current = undefined;
        if (next < tasks.length) start();
      });
      feed();
    }
    for (let i = 0; i < Math.min(pool.jobs, tasks.length); i += 1) start();
  });
}
