/**
 * Validating many files across cores: a pool of worker threads running {@link validateLog}, each taking the next
 * file when it finishes one. Results come back tagged with their file's index, so the caller can print them in
 * argument order whatever order they finish in.
 */

import { Worker } from 'node:worker_threads';
import type { Progress } from '@cursor-stream/node/logs';
import { cliError, type Result } from '../cli-error.ts';
import type { FileReport } from './findings.ts';
import type { ValidateLogOptions } from './validate-log.ts';
import type { ValidateTask, WorkerMessage, WorkerSetup } from './worker-protocol.ts';

// Built output runs the compiled worker; a run from source (tests, tsx) runs the TypeScript one.
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './validate-worker.ts' : './validate-worker.js',
  import.meta.url,
);

/** What the pool needs besides the files. */
export interface PoolOptions {
  readonly jobs: number;
  readonly options: ValidateLogOptions;
  readonly progress: Progress;
  /** Receives each file's result as it finishes. */
  onResult(index: number, result: Result<FileReport>): void;
}

function crashed(path: string, error: unknown): Result<FileReport> {
  const detail = error instanceof Error ? error.message : String(error);
  return { ok: false, error: cliError('read-failed', `validation failed: ${detail}`, path) };
}

/**
 * Validates `tasks` on up to `jobs` worker threads. Resolves when every task has a result. A worker that dies fails
 * its current file only; a fresh worker takes over the rest.
 */
export function validateInWorkers(tasks: readonly ValidateTask[], pool: PoolOptions): Promise<void> {
  const setup: WorkerSetup = { options: pool.options };
  let next = 0;
  let finished = 0;
  return new Promise((resolve) => {
    if (tasks.length === 0) {
      resolve();
      return;
    }
    function settle(index: number, result: Result<FileReport>): void {
      pool.onResult(index, result);
      finished += 1;
      if (finished === tasks.length) resolve();
    }
    function start(): void {
      const worker = new Worker(WORKER_URL, { workerData: setup });
      let current: ValidateTask | undefined;
      function feed(): void {
        current = tasks[next];
        next += 1;
        if (current === undefined) void worker.terminate();
        else worker.postMessage(current);
      }
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'progress') {
          pool.progress.advance(message.bytes);
          return;
        }
        current = undefined;
        settle(message.index, message.result);
        feed();
      });
      let failure: unknown = new Error('the worker stopped');
      worker.on('error', (error) => {
        failure = error;
      });
      worker.on('exit', () => {
        if (current === undefined) return;
        settle(current.index, crashed(current.path, failure));
        current = undefined;
        if (next < tasks.length) start();
      });
      feed();
    }
    for (let i = 0; i < Math.min(pool.jobs, tasks.length); i += 1) start();
  });
}
