import { createHash } from 'node:crypto';
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

/** Counts and digests every value: the sink of correctness runs. */
export function createDigestSink(): CountingSink {
  const hash = createHash('sha1');
  let records = 0;
  let problems = 0;
  return {
    value: (value) => {
      records++;
      hash.update(`${JSON.stringify(value)}\n`);
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
