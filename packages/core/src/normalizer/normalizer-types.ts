import type { LazyStringBounds, NdjsonRecord } from '@cursor-stream/ndjson';
import type { Dialect } from '../dialect.ts';
import type { CanonicalEvent, CanonicalEventType, SourceLocation } from '../events/index.ts';
import type { ForeignLog } from '../foreign-agents.ts';

/** Options of {@link createNormalizer} and {@link normalizeStream}. */
export interface NormalizerOptions {
  /**
   * `'auto'` detects the dialect per stream, from its first distinctive record; a dialect name forces that dialect
   * (records only another dialect explains are still normalized by that one).
   *
   * @defaultValue `'auto'`
   */
  dialect?: string;
  /**
   * Dialects to choose from, in order of preference. A third party passes `[...BUILT_IN_DIALECTS, mine]`.
   *
   * @defaultValue {@link BUILT_IN_DIALECTS}
   */
  dialects?: readonly Dialect[];
  /**
   * Event types to emit; the rest are dropped, and records that can give only those are not even parsed when the
   * dialects say so (see {@link Dialect.skipPrefixes}): leaving out `reasoning-delta` and `reasoning-end` skips every
   * `thinking` record, most of a stream's records.
   *
   * @defaultValue every type
   */
  types?: readonly CanonicalEventType[];
  /** Largest record the tokenizer holds, in bytes; see the tokenizer's option of the same name. */
  maxRecordBytes?: number;
  /**
   * Leave the long strings of long records (a tool's output, a file's contents) undecoded until an event's reader
   * reads them; see the tokenizer's option of the same name. Values read are the same either way; `false` gives
   * plain data properties throughout.
   *
   * @defaultValue true
   */
  lazyStrings?: boolean | Partial<LazyStringBounds>;
  /**
   * Called for every tokenizer record with the dialect that normalized it (`undefined`: none did), e.g. to run
   * `dialect.validate` on each record.
   */
  onRecord?: (record: NdjsonRecord, dialect: Dialect | undefined) => void;
  /**
   * Which records `onRecord` is called for: `every-record`, or `unproven-records` for a consumer that only checks
   * records against their dialect's schema: the lines a dialect takes without a value (see {@link Dialect.hotLines})
   * are proven to pass it, strict or open, so they are taken without a value and not passed to `onRecord`.
   *
   * @defaultValue `'every-record'`
   */
  onRecordFor?: 'every-record' | 'unproven-records';
}

/** Turns one stream of any dialect into canonical events; see {@link createNormalizer}. */
export interface Normalizer {
  /**
   * Takes the next chunk of input, cut anywhere.
   *
   * @returns The events of the records this chunk completed, in input order.
   */
  feed(chunk: Uint8Array | string): readonly CanonicalEvent[];
  /**
   * Takes one record parsed elsewhere (a WebSocket message's JSON), as if it were the next line of the stream.
   *
   * @param value - The parsed record; anything but a JSON object becomes an `invalid-line` (`not-an-object`).
   * @param loc - Where it came from; by default line = its 1-based ordinal among pushed records, offset 0.
   */
  pushRecord(value: unknown, loc?: SourceLocation): readonly CanonicalEvent[];
  /**
   * Marks the end of input: a record left open is reported, and a session without a `result` gets its
   * `incomplete` finish.
   */
  end(): readonly CanonicalEvent[];
  /**
   * Set at the first record only another coding agent writes (Claude Code, Codex, Gemini CLI): the log is that agent's,
   * or mixes its records in, and is not a cursor-agent log. Its records are still normalized as far as they go; the
   * caller decides to refuse the log (the command line reports a `foreign-format` problem and exits 1).
   */
  readonly foreign: ForeignLog | undefined;
  /**
   * Bytes of input held for the record being read, whose line (or lines, for a string holding a line feed) has not
   * ended yet: the bytes fed so far less this many are those whose records have all been given as events.
   */
  readonly bufferedBytes: number;
  /**
   * Name of the dialect detected (or forced) so far; `undefined` until the first distinctive record. After `end()`, a
   * stream with no distinctive record is named by the dialect that explained its records.
   */
  readonly dialect: string | undefined;
}
