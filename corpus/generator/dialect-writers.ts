/**
 * How a session model becomes records of a dialect. The official dialect is written directly from the model. Any
 * other dialect is written by reading the official records into canonical events and encoding those with the
 * dialect's `encode`: {@link createEncodingWriter} is that seam, so adding a dialect to the generator is one entry in
 * the writer table once the core can normalize and the dialect can encode.
 */

import {
  type CanonicalEvent,
  createNormalizer,
  type Dialect,
  type JsonObject,
  payloadEnvelopeDialect,
  pythonWrapperDialect,
} from '@cursor-stream/core';
import { officialRecords } from './official-records.ts';
import type { SessionModel } from './session-model.ts';

/** Writes sessions as records of one dialect. */
export interface DialectWriter {
  /** The dialect's name, as in `--dialect`. */
  readonly dialect: string;
  /** The records of one session, in stream order. */
  records(session: SessionModel): Iterable<JsonObject>;
}

/** Writes the official `stream-json` dialect. */
export const officialWriter: DialectWriter = {
  dialect: 'official',
  records: officialRecords,
};

/**
 * Makes a writer for a dialect that can encode canonical events.
 *
 * @param dialect - The target dialect; it must have `encode`.
 * @param toCanonical - Reads one session's official records into canonical events (the core's normalizer).
 * @throws TypeError when the dialect cannot encode.
 */
export function createEncodingWriter(
  dialect: Dialect,
  toCanonical: (records: readonly JsonObject[]) => readonly CanonicalEvent[],
): DialectWriter {
  const { encode } = dialect;
  if (encode === undefined) throw new TypeError(`dialect ${dialect.name} has no encode`);
  return {
    dialect: dialect.name,
    records: (session) => encode.call(dialect, toCanonical([...officialRecords(session)])),
  };
}

/**
 * Reads one session's official records into canonical events, as the core does for a stream: a fresh normalizer per
 * session, forced to the official dialect.
 */
export function officialToCanonical(records: readonly JsonObject[]): CanonicalEvent[] {
  const normalizer = createNormalizer({ dialect: 'official' });
  const events: CanonicalEvent[] = [];
  for (const record of records) events.push(...normalizer.pushRecord(record));
  events.push(...normalizer.end());
  return events;
}

/** The writers `--dialect` accepts. */
export const DIALECT_WRITERS: ReadonlyMap<string, DialectWriter> = new Map(
  [
    officialWriter,
    createEncodingWriter(pythonWrapperDialect as Dialect, officialToCanonical),
    createEncodingWriter(payloadEnvelopeDialect as Dialect, officialToCanonical),
  ].map((writer) => [writer.dialect, writer]),
);
