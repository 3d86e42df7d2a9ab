import { createHash } from 'node:crypto';
import type { CanonicalEvent } from '@cursor-stream/core';
import type { RecordSink } from './approaches/approach.ts';

/** A sink that remembers what it received. */
export interface CountingSink extends RecordSink {
  readonly records: number;
  readonly problems: number;
  /** SHA-1 over `JSON.stringify(value) + "\n"` of every value, as the generator computes it; only when asked for. */
  digest(): string | undefined;
}

/** Counts records and problems: the sink of timed runs. */
export function createCountingSink(): CountingSink {
  let records = 0;
  let problems = 0;
  return {
    value: () => {
      records++;
    },
    problem: () => {
      problems++;
    },
    get records() {
      return records;
    },
    get problems() {
      return problems;
    },
    digest: () => undefined,
  };
}

/**
 * An event as it is digested: everything but where its record was, which differs between a corpus and its
 * raw-newline variant.
 */
export function withoutLoc(event: CanonicalEvent): Omit<CanonicalEvent, 'loc'> {
  const { loc: _loc, ...rest } = event;
  return rest;
}

/**
 * Counts and digests every value: the sink of correctness runs.
 *
 * @param digestOf - What of a value is digested (events are digested {@link withoutLoc}); the value by default.
 */
export function createDigestSink(digestOf: (value: unknown) => unknown = (value) => value): CountingSink {
  const hash = createHash('sha1');
  let records = 0;
  let problems = 0;
  return {
    value: (value) => {
      records++;
      hash.update(`${JSON.stringify(digestOf(value))}\n`);
    },
    problem: () => {
      problems++;
    },
    get records() {
      return records;
    },
    get problems() {
      return problems;
    },
    digest: () => hash.digest('hex'),
  };
}
