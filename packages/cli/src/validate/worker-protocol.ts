/** The messages between `validate` and its worker threads. */

import type { Result } from '../cli-error.ts';
import type { FileReport } from './findings.ts';
import type { ValidateLogOptions } from './validate-log.ts';

/** Given to each worker when it starts. */
export interface WorkerSetup {
  readonly options: ValidateLogOptions;
}

/** Main thread to worker: validate this file. */
export interface ValidateTask {
  readonly index: number;
  readonly path: string;
}

/** Worker to main thread: bytes read since the last message, or a finished file. */
export type WorkerMessage =
  | { readonly type: 'progress'; readonly bytes: number }
  | { readonly type: 'report'; readonly index: number; readonly result: Result<FileReport> };
