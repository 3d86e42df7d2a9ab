/** A worker thread of a pool: loads the task runner module, then runs the tasks the main thread sends, one at a time. */

import { parentPort, workerData } from 'node:worker_threads';
import type { Progress } from '../logs/index.ts';
import type { PoolMessage, PoolTask, PoolWorkerSetup } from './pool-protocol.ts';
import { RUNNER_EXPORT, type TaskRunner } from './task-runner.ts';

/** Bytes read before the worker tells the main thread, so that progress costs one message per few MiB. */
const PROGRESS_REPORT_BYTES = 4 * 1024 * 1024;

const port = parentPort;

const { runner, setup } = workerData as PoolWorkerSetup;

function post(message: PoolMessage): void {
  port?.postMessage(message);
}

function reportingProgress(): Progress {
  let unreported = 0;
  return {
    advance(bytes) {
      unreported += bytes;
      if (unreported < PROGRESS_REPORT_BYTES) return;
      post({ type: 'progress', bytes: unreported });
      unreported = 0;
    },
    done() {
      if (unreported > 0) post({ type: 'progress', bytes: unreported });
      unreported = 0;
    },
  };
}

async function loadRunner(): Promise<TaskRunner<unknown, unknown>> {
  const loaded = (await import(runner)) as Record<string, unknown>;
  const create = loaded[RUNNER_EXPORT];
  if (typeof create !== 'function') throw new Error(`${runner} exports no ${RUNNER_EXPORT} function`);
  return await (create as (setup: unknown) => TaskRunner<unknown, unknown>)(setup);
}

// Loaded once, as the worker starts; a module that cannot be loaded fails each task with its reason.
const running = loadRunner();
running.catch(() => undefined);

port?.on('message', async ({ index, task }: PoolTask) => {
  try {
    const run = await running;
    const progress = reportingProgress();
    const outcome = await run(task, progress);
    progress.done();
    post({ type: 'done', index, outcome });
  } catch (error) {
    post({ type: 'threw', index, message: error instanceof Error ? error.message : String(error) });
  }
});
