/**
 * The dialect plugin interface: how one producer's records become canonical events. The core knows dialects only
 * through this interface, so a third party adds one by passing it in `dialects`, without touching the core.
 */

import type { CanonicalEvent, CanonicalEventType, SourceLocation } from './events/index.ts';
import type { LineLayout, TakenLine } from './record-readers/line-templates.ts';
import type { RecordReader } from './record-readers/record-templates.ts';

/**
 * The records a dialect takes straight from their lines, without a value; see {@link Dialect.hotLines}. Only
 * records whose events depend on nothing but the fields a layout reads and keeps, and on the stream's state as
 * `normalize` would use it, may be hot.
 */
export interface HotLines<State = unknown> {
  /** The hot records: their shapes (derived from the dialect's schema), the field read, the fields kept as learnt. */
  readonly layouts: readonly LineLayout[];
  /**
   * The record of a layout, counted from 1 in each stream, that its template is learnt from: the records before it
   * are parsed the usual way. Learning costs about what parsing a few dozen short records does.
   *
   * @defaultValue `LEARN_AT_RECORD` (16)
   */
  readonly learnAt?: number;
  /**
   * The events of a line taken by a layout, with this stream's state: exactly what {@link Dialect.normalize} gives
   * for its record, with the same effect on the state.
   */
  events(line: TakenLine, loc: SourceLocation, state: State): readonly CanonicalEvent[];
}

/** A JSON object record, as the tokenizer parsed it. */
export type JsonObject = Record<string, unknown>;

/**
 * How a dialect judges one record:
 * - `distinctive`: only this dialect writes records like it; auto-detection locks onto the first such record.
 * - `shared`: this dialect explains the record, but others write the same shape (`system/init`, `user`, `thinking`).
 * - `foreign`: this dialect does not explain the record.
 */
export type Detection = 'distinctive' | 'shared' | 'foreign';

/** One way a record fails its dialect's JSON Schema. Errors are values, like ajv's. */
export interface SchemaIssue {
  /** JSON Pointer to the offending value inside the record (`""` for the record itself). */
  pointer: string;
  /** What is wrong, for a person. */
  message: string;
  /** The schema keyword that failed (`required`, `type`, `additionalProperties`, ...). */
  keyword: string;
}

/**
 * What a person calls a record, for views that count records by kind (`census`): a record's `type` and `subtype` by
 * default, or what a dialect whose records have no `type` names them by (a JSON-RPC method and what it answers).
 */
export interface RecordName {
  /** The kind of record, e.g. `system` or `session/update`; `null` when nothing names it. */
  readonly type: string | null;
  /** The kind within it, e.g. `init` or `agent_message_chunk`; `null` when it has none. */
  readonly subtype: string | null;
}

/** Names the records of one log in order; see {@link Dialect.createRecordNamer}. */
export type RecordNamer = (record: JsonObject) => RecordName;

/** Options of {@link Dialect.validate}. */
export interface ValidateOptions {
  /** Also report fields the schema does not know (the schemas are open by default, like the formats). */
  strict?: boolean;
  /**
   * The length of the record's JSON text, in characters or UTF-8 bytes, when known. Each level of nesting takes two
   * of them, so a record this short is known not to nest too deep without walking it (strict validation asks).
   */
  textLength?: number;
}

/** What {@link Dialect.normalize} knows besides the record. */
export interface DialectContext<State> {
  /** This stream's state, made by {@link Dialect.createState}. */
  readonly state: State;
  /** Where the record starts in the input. */
  readonly loc: SourceLocation;
  /** The record's source text. */
  readonly text: string;
  /**
   * Reads text back through the tokenizer and normalizer of this stream, e.g. a line a wrapper could not parse and
   * passed on as a string. Returns the events it gave.
   */
  reparse(text: string): readonly CanonicalEvent[];
}

/**
 * A dialect of cursor-agent output.
 *
 * @typeParam State - Per-stream state, e.g. which tool names were seen for which call ids.
 * @typeParam Name - The dialect's name, when its type should say it (the built-in dialects' do).
 */
export interface Dialect<State = unknown, Name extends string = string> {
  /** Stable kebab-case name, e.g. `official`; the value of `--dialect`. */
  readonly name: Name;
  /** One line for a person: which producer writes this dialect. */
  readonly description: string;
  /** How this dialect judges a record; see {@link Detection}. Must be cheap: it runs before every record is mapped. */
  detect(record: JsonObject): Detection;
  /** Checks a record against this dialect's JSON Schema. An empty array means valid. */
  validate(record: JsonObject, options?: ValidateOptions): readonly SchemaIssue[];
  /** Fresh state for one stream. */
  createState(): State;
  /**
   * Dialects with the same key share one state per stream, made by the first one's `createState`: for dialects whose
   * records wrap each other's (a wrapper passing the CLI's records on), so that tool calls pair and assistant text is
   * deduplicated across them. By default each dialect has its own state.
   */
  readonly stateKey?: unknown;
  /** Maps one record this dialect explains to canonical events (possibly none). Must not throw. */
  normalize(record: JsonObject, context: DialectContext<State>): readonly CanonicalEvent[];
  /**
   * The events of what the dialect held back for a record that did not come, given as the stream ends (before the
   * finishes of the sessions left open): an ACP call announced without its arguments yet, in a log cut off before
   * its update. They have no location of their own. Must not throw.
   */
  endStream?(state: State): readonly CanonicalEvent[];
  /**
   * Whether the record that starts a session (its `stream-start`) makes the dialect forget the calls started before
   * it, so that a completion pairs with a start of its own session only. What it makes of the records from a session
   * start on then depends on no earlier record's calls: a log read in parts cut at session starts (`--jobs`) needs
   * nothing from the parts before about them. By default a dialect is taken to remember them.
   */
  readonly callsEndWithSession?: boolean;
  /**
   * Reads the records this dialect meets most (a `thinking` delta, an `assistant` delta) straight from their text,
   * without `JSON.parse`, once it has learnt their layout from one parsed the usual way (see `createRecordReader`).
   * The normalizer asks it while the stream is this dialect's (or, before that is known, while this dialect explains
   * its shared records); what it reads is the value `JSON.parse` gives, which then goes through every check and
   * `normalize` as any record does. Worth it only where matching a learnt layout beats `JSON.parse` on the records
   * of the dialect: on Node 20, V8's `JSON.parse` of a small record is as fast, so the built-in dialects have none.
   */
  readonly recordReader?: RecordReader;
  /**
   * Reads a line that is not JSON as a record of this dialect, for producers whose logs write records after a prefix
   * (a time, a direction: `0.759 <-- {…}`): the record the line stands for, in a form `normalize` reads, or
   * `undefined` when the line is none of this dialect's (it is then reported as output, as before). Asked only for
   * lines that do not start like JSON; must be cheap on the others and must not throw.
   */
  readTextLine?(line: string): JsonObject | undefined;
  /**
   * The records this dialect meets most (a `thinking` delta), taken from their lines without a value once their
   * layout is learnt (see `createLineReader`): a line of a learnt layout is proven to be a record `JSON.parse` reads
   * and the dialect's schema accepts, and its events are made from the one field they need. The normalizer takes
   * such lines while the stream is this dialect's (or, before that is known, while this dialect explains its shared
   * records), unless its caller wants every record's value.
   */
  readonly hotLines?: HotLines<State>;
  /**
   * For consumers that want only some event types: exact starts of raw record text (e.g.
   * `{"type":"thinking","subtype":"delta",`) marking records that give only events outside `wanted` and change no
   * state other events depend on, so they need not be parsed. Return `undefined` when none can be skipped. Prefixes
   * are data rather than a function so that the normalizer can intersect them across dialects once: a record is
   * skipped only when every dialect lists its prefix.
   */
  skipPrefixes?(wanted: ReadonlySet<CanonicalEventType>): readonly string[] | undefined;
  /**
   * Names records for a person counting them (`census`), where the `type` and `subtype` fields do not: a fresh namer
   * per log, since a record may be named by an earlier one (a response by the request it answers). Its state is
   * bounded, as the dialect's own.
   */
  createRecordNamer?(): RecordNamer;
  /** Writes canonical events back out as records of this dialect, e.g. for a server that speaks it to clients. */
  encode?(events: readonly CanonicalEvent[]): JsonObject[];
}
