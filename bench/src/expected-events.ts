/**
 * What a row delivering canonical events must give for a corpus: the events the core's normalizer makes from the
 * corpus's records pushed one by one (`pushRecord`), each record read by `JSON.parse` on its own line. That path
 * shares no tokenizer code with the rows, and locations are left out, so a raw-newline corpus, whose lines and
 * offsets differ, must give exactly the events of the clean corpus of its seed.
 */

import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { type CanonicalEvent, createNormalizer } from '@cursor-stream/core';
import type { Approach } from './approaches/approach.ts';
import { withoutLoc } from './sinks.ts';

/** The events a row should deliver: their count and the digest of their values without `loc`. */
export interface EventsExpectation {
  events: number;
  digest: string;
}

/** The rows of `approaches` that deliver events. */
export function eventRows(approaches: readonly Approach[]): Approach[] {
  return approaches.filter((approach) => approach.delivers === 'events');
}

interface Tally {
  types: ReadonlySet<string> | undefined;
  hash: Hash;
  events: number;
}

function tallyEvents(tallies: readonly Tally[], events: readonly CanonicalEvent[]): void {
  for (const event of events) {
    const line = `${JSON.stringify(withoutLoc(event))}\n`;
    for (const tally of tallies) {
      if (tally.types !== undefined && !tally.types.has(event.type)) continue;
      tally.events++;
      tally.hash.update(line);
    }
  }
}

/**
 * Computes, in one pass over a clean corpus (one record per line), the expectation of every row that delivers events.
 *
 * @returns The expectation per row name.
 */
export async function expectedEvents(
  file: string,
  rows: readonly Approach[],
): Promise<Record<string, EventsExpectation>> {
  const tallies = rows.map((row) => ({
    name: row.name,
    types: row.eventTypes === undefined ? undefined : new Set(row.eventTypes),
    hash: createHash('sha1'),
    events: 0,
  }));
  const normalizer = createNormalizer();
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    tallyEvents(tallies, normalizer.pushRecord(JSON.parse(line)));
  }
  tallyEvents(tallies, normalizer.end());
  return Object.fromEntries(
    tallies.map((tally) => [tally.name, { events: tally.events, digest: tally.hash.digest('hex') }]),
  );
}
