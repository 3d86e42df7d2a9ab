/**
 * What runs a task on a worker thread of a pool (see `runInWorkers`). The runner lives in a module of its own, which
 * each worker loads by its URL: the module exports `createTaskRunner(setup)` (see {@link CreateTaskRunner}).
 */

import type { Progress } from '../logs/index.ts';

/**
 * Runs one task on a worker, telling `progress` the bytes it reads as it goes, and resolves to its outcome (copied to
 * the main thread, so plain data). A failure it can say is best an outcome; one it throws is reported for the task.
 */
export type TaskRunner<Task, Outcome> = (task: Task, progress: Progress) => Promise<Outcome>;

/**
 * What a task runner module exports as `createTaskRunner`: the runner, from the `setup` given to `runInWorkers`
 * (copied to each worker, so plain data). It may load what it needs first, on the worker's thread.
 */
export type CreateTaskRunner<Setup = unknown, Task = unknown, Outcome = unknown> = (
  setup: Setup,
) => TaskRunner<Task, Outcome> | Promise<TaskRunner<Task, Outcome>>;

/** The name a task runner module exports its {@link CreateTaskRunner} under. */
export const RUNNER_EXPORT = 'createTaskRunner';
