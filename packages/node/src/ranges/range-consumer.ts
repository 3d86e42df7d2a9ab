/**
 * What a consumer does with the events of a range on a worker thread: the same reducers as on one thread, fed the
 * same events at the same points of the reading, with output handed back as items for the main thread to write.
 *
 * A consumer lives in a module of its own, which the worker loads by its URL: the module exports
 * `createConsumerFactory(setup)` (see {@link CreateConsumerFactory}), and the engine knows nothing else of it.
 */

import type {
  CanonicalEvent,
  Dialect,
  NormalizerOptions,
  SourceLocation,
} from '@cursor-stream/core/normalize';
import type { NdjsonRecord } from '@cursor-stream/ndjson';

/**
 * When something happens in the reading as one thread does it: `2 * chunk` while the chunk is fed (its records), `2 *
 * chunk + 1` when its events are delivered. A consumer whose output depends on that order (the first findings a
 * checker keeps) sorts by it; ranges cut inside a chunk then interleave exactly as one thread's reading does.
 */
export type ReadingStep = number;

/** The reading step of a chunk being fed, or of its events being delivered. */
export function readingStep(chunk: number, delivered: boolean): ReadingStep {
  return 2 * chunk + (delivered ? 1 : 0);
}

/** A consumer's reducers for one run of ranges. */
export interface RangeConsumer {
  /** Each record, with its position in the file, as the normalizer reads it; given only to consumers that want it. */
  readonly onRecord?: (record: NdjsonRecord, dialect: Dialect | undefined, step: ReadingStep) => void;
  /**
   * Which records {@link RangeConsumer.onRecord} is given, as the normalizer's option of that name says: a consumer
   * that only checks records against their dialect's schema asks for `unproven-records`, and the lines a dialect
   * takes without a value are then read that way, as on one thread.
   *
   * @defaultValue `'every-record'`
   */
  readonly onRecordFor?: NormalizerOptions['onRecordFor'];
  /**
   * Whether the run leaves long strings undecoded until read, as the normalizer's option of that name says; a
   * consumer that reads every string (a schema check) turns it off.
   *
   * @defaultValue `true`
   */
  readonly lazyStrings?: boolean;
  /** The stream's dialect, once known, before the events it read. */
  onDialect(name: string): void;
  /** A batch of events, positions in the file, in order. */
  onEvents(events: readonly CanonicalEvent[], step: ReadingStep): void;
  /** The run ended: at the first record of the next range (a session start), or at the end of input. */
  end(where: SourceLocation, step: ReadingStep, atEndOfInput: boolean): void;
  /** Output made since the last call: items to write in order, how many the consumer counts, their size in memory. */
  take(): { items: unknown[]; count: number; bytes: number };
  /** What the consumer merges across runs besides the items. */
  result(): unknown;
}

/**
 * Makes a consumer for one run.
 *
 * @param skip - Items to leave out: a run resumed where another stopped repeats the items already written.
 */
export type ConsumerFactory = (skip: number) => RangeConsumer;

/**
 * What a consumer module exports as `createConsumerFactory`: the factory of its consumers, from the `setup` given to
 * `readInRanges` (copied to the worker, so plain data). It may load what it needs first, on the worker's thread.
 *
 * @example
 * ```ts
 * export const createConsumerFactory: CreateConsumerFactory<{ json: boolean }> = (setup) => (skip) =>
 *   blockConsumer(setup.json, skip);
 * ```
 */
export type CreateConsumerFactory<Setup = unknown> = (
  setup: Setup,
) => ConsumerFactory | Promise<ConsumerFactory>;

/** The name a consumer module exports its {@link CreateConsumerFactory} under. */
export const CONSUMER_EXPORT = 'createConsumerFactory';
