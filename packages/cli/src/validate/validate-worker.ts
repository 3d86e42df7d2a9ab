/** A worker thread of `validate`: validates the files the main thread sends, one at a time. */

import { parentPort, workerData } from 'node:worker_threads';
import type { Progress } from '@cursor-stream/node/logs';
import { validateLog } from './validate-log.ts';
import type { ValidateTask, WorkerMessage, WorkerSetup } from './worker-protocol.ts';

/** Bytes read before the worker tells the main thread, so that progress costs one message per few MiB. */
const PROGRESS_REPORT_BYTES = 4 * 1024 * 1024;

const port = parentPort;
const { options } = workerData as WorkerSetup;

function post(message: WorkerMessage): void {
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

// Workers never read standard input: the main thread validates `-` itself.
const noInput: AsyncIterable<Uint8Array> = { async *[Symbol.asyncIterator]() {} };

port?.on('message', async (task: ValidateTask) => {
  const result = await validateLog(task.path, options, {
    stdin: noInput,
    progress: () => reportingProgress(),
  });
  post({ type: 'report', index: task.index, result });
});
