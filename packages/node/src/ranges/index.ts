/**
 * Reading one large log file in ranges on worker threads, with exactly the output one thread gives, and running many
 * tasks (one per file) on a pool of worker threads. What is done with a range's events, or in a task, is a module
 * that each worker loads by URL: the engine knows no command.
 *
 * The workers are separate files (`range-worker`, `pool-worker`), found beside the engine; a bundle emits them, and
 * every consumer or runner module, as files of their own.
 */

export {
  CONSUMER_EXPORT,
  type ConsumerFactory,
  type CreateConsumerFactory,
  type RangeConsumer,
  type ReadingStep,
  readingStep,
} from './range-consumer.ts';
export {
  type RangeCounts,
  type RangeRead,
  type ReadInRangesOptions,
  readInRanges,
} from './read-in-ranges.ts';
export { runInWorkers, type WorkerPoolOptions } from './run-in-workers.ts';
export { createSkip, type Skip } from './skip.ts';
export { MIN_SPLIT_BYTES, RANGE_BYTES } from './split-plan.ts';
export { type CreateTaskRunner, RUNNER_EXPORT, type TaskRunner } from './task-runner.ts';
