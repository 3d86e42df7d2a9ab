/** The messages between the main thread and the worker threads of a pool that runs one task at a time each. */

/** Given to each worker when it starts. */
export interface PoolWorkerSetup {
  /** The task runner module's URL, and what its runner is made from. */
  readonly runner: string;
  readonly setup: unknown;
}

/** Main thread to worker: run this task. */
export interface PoolTask {
  readonly index: number;
  readonly task: unknown;
}

/** Worker to main thread: bytes read since the last message, a finished task, or one that threw. */
export type PoolMessage =
  | { readonly type: 'progress'; readonly bytes: number }
  | { readonly type: 'done'; readonly index: number; readonly outcome: unknown }
  | { readonly type: 'threw'; readonly index: number; readonly message: string };
