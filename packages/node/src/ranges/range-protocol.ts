/** The messages between the main thread and the worker threads that read a file in ranges. */

import type { ForeignLog, SourceLocation } from '@cursor-stream/core/normalize';
import type { LogError } from '../logs/index.ts';

/** Given to each worker when it starts. */
export interface RangeWorkerSetup {
  readonly path: string;
  /** Where each range starts, then the file's size. */
  readonly bounds: readonly number[];
  /** The consumer module's URL, and what its factory is made from. */
  readonly consumer: string;
  readonly setup: unknown;
  /** The dialect the first range is read with: `auto` or the one forced. */
  readonly firstDialect: string;
  /** The dialect later ranges are read with, and that every accepted cut must find the stream locked on. */
  readonly dialect: string;
  readonly maxRecordBytes?: number | undefined;
}

/** Main thread to worker. */
export type ToRangeWorker =
  /** Count the line feeds of each of these byte spans. */
  | { readonly type: 'count'; readonly spans: readonly (readonly [number, number])[] }
  /** Read from the start of range `start`, whose first line is `firstLine`, as run `run`. */
  | {
      readonly type: 'run';
      readonly run: number;
      readonly start: number;
      readonly firstLine: number;
      /** Keep the state at the cut the run stops at: it will be exactly one thread's. */
      readonly park: boolean;
      /** The end of the file as a location, where a session without an end of its own ends. */
      readonly endOfInput: SourceLocation;
    }
  /**
   * Go on from where run `parked` stopped, as run `run`: without output up to range `until`, then from its start,
   * leaving out its first `skip` items. The state is kept at the cut the run stops at.
   */
  | {
      readonly type: 'resume';
      readonly run: number;
      readonly parked: number;
      readonly until: number;
      readonly skip: number;
      readonly endOfInput: SourceLocation;
    }
  /** Run `run` may send one more batch. */
  | { readonly type: 'credit'; readonly run: number }
  /** Stop run `run`; nothing more of it is wanted. */
  | { readonly type: 'cancel'; readonly run: number }
  /** Forget where run `parked` stopped. */
  | { readonly type: 'release'; readonly parked: number };

/** Output of a run: items for the consumer's reader to write, in order, and what the main thread checks before writing them. */
export interface RunBatch {
  readonly items: unknown[];
  /** Items as the consumer counts them (events, sessions), for a resumed run to leave out those already written. */
  readonly count: number;
  /** About how many bytes the items hold in memory. */
  readonly bytes: number;
  /** Ids of tool calls this run touched while its own record of started calls had no entry for them. */
  readonly touches: string[];
  /** Input bytes read since the last batch. */
  readonly read: number;
}

/** What a finished run found besides its items. */
export interface RunSummary {
  /** Canonical events delivered, and the `invalid-line` events among them. */
  readonly events: number;
  readonly invalidLines: number;
  /** The first record of another agent's log in the run's own bytes. */
  readonly foreign: ForeignLog | null;
  /**
   * Ids of tool calls the run started and did not complete; `null` when it cannot tell (an event was replaced after
   * its dialect read the record, as a record nested too deep is).
   */
  readonly pending: string[] | null;
  /** The consumer's own result for the run. */
  readonly result: unknown;
}

/** Worker to main thread. */
export type FromRangeWorker =
  | { readonly type: 'counted'; readonly lineFeeds: number[] }
  | ({ readonly type: 'batch'; readonly run: number } & RunBatch)
  | {
      readonly type: 'done';
      readonly run: number;
      /** The range the run stopped at the start of (the number of ranges when it read to the end). */
      readonly end: number;
      /** Whether the run stopped at a cut (rather than at the end of the file); kept there if asked to. */
      readonly parked: boolean;
      readonly batch: RunBatch;
      readonly summary: RunSummary;
    }
  | { readonly type: 'failed'; readonly run: number | null; readonly error: LogError };
