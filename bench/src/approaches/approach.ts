/**
 * What a benchmark row is: a way to read an NDJSON file into values, loaded before the clock starts and run against
 * an input and a sink. Rows are listed in `registry.ts`; adding one is a module with an {@link Approach} and a line
 * there.
 */

import type { Readable } from 'node:stream';

/** Where a row reads from. */
export interface ParseInput {
  /** The file, for rows that read it whole. */
  readonly file: string;
  /** Opens the file as a byte stream in the chunking under test (64 KiB reads, or tiny odd chunks). */
  open(): Readable;
  /**
   * The same chunks read synchronously, when the run reads files as a plain loop over them does (the command rows);
   * each chunk is valid only until the next one is asked for. Rows that can read this way do.
   */
  readSync?(): Iterable<Uint8Array>;
}

/** Receives what a row delivers. */
export interface RecordSink {
  /** One parsed record. */
  value(value: unknown): void;
  /** One line or stretch the row reported as bad and went past. */
  problem(): void;
}

/** Reads the whole input, delivering to the sink; rejects when the row gives up (its stream errored and stopped). */
export type Parse = (input: ParseInput, sink: RecordSink) => Promise<void>;

/** A benchmark row. */
export interface Approach {
  /** Stable id, used on the command line (`--only`) and in the JSON report. */
  readonly name: string;
  /** What the row does, for the table. */
  readonly label: string;
  /** Ours, a baseline, or a measure of fixed costs that parses nothing. */
  readonly group: 'ours' | 'baseline' | 'overhead';
  /** Whether the row is expected to deliver every record of a corpus with raw line breaks inside strings. */
  readonly survivesRawNewlines: boolean;
  /** Whether the row reads the file whole, so the chunking of the input does not apply to it. */
  readonly readsWholeFile?: boolean;
  /**
   * What the row delivers to its sink: parsed records (the default), or canonical events, judged against the events
   * the core's normalizer gives for the corpus's records.
   */
  readonly delivers?: 'records' | 'events';
  /** For a row delivering events: the canonical event types it asks for (all when absent). */
  readonly eventTypes?: readonly string[];
  /** Imports the row's libraries and returns its parse function; runs before the clock starts. */
  load(): Promise<Parse>;
}
