/**
 * A capture kept as one JSON document (an array, or records pretty-printed) means what its lines mean: for every
 * recording of every built-in dialect, the records written as `jq -s .`, `jq -s -c .`, `jq .` and bracketed lines
 * give the events the NDJSON gives (its problems included: a record's text may hold lines of its own), located where
 * their records start.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { cutAt } from '@cursor-stream/test-kit/chunking';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { dialectRecordings, normalizeChunks, normalizeText, withoutLoc } from './support.ts';

/** The records of a recording: its lines that are JSON objects, written again as `JSON.stringify` writes them. */
function recordsOf(path: string): unknown[] {
  const records: unknown[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    try {
      const value: unknown = JSON.parse(line);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) records.push(value);
    } catch {}
  }
  return records;
}

const LAYOUTS: Record<string, (records: readonly unknown[]) => string> = {
  'jq -s .': (records) => `${JSON.stringify(records, null, 2)}\n`,
  'jq -s -c .': (records) => `${JSON.stringify(records)}\n`,
  'jq .': (records) => `${records.map((record) => JSON.stringify(record, null, 2)).join('\n')}\n`,
  'bracketed lines': (records) => `[\n${records.map((record) => JSON.stringify(record)).join(',\n')}\n]\n`,
};

const recordings = dialectRecordings().filter((path) => recordsOf(path).length > 0);

describe('a capture kept as a JSON document', () => {
  it('has recordings to read', () => {
    expect(recordings.length).toBeGreaterThan(10);
  });

  for (const path of recordings) {
    it(`reads ${basename(path)} in every layout as its lines`, () => {
      const records = recordsOf(path);
      const lines = `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
      const expected = withoutLoc(normalizeText(lines));
      for (const [layout, write] of Object.entries(LAYOUTS)) {
        const events = normalizeText(write(records));
        expect(withoutLoc(events), layout).toEqual(expected);
        // Every event of a record is at the line its record starts on, as in the lines.
        expect(new Set(events.map((event) => event.loc?.line)).size, layout).toBeLessThanOrEqual(
          records.length + 1,
        );
      }
    });
  }

  test.prop([fc.constantFrom(...recordings), fc.array(fc.nat(), { maxLength: 10 })])(
    'any chunking of a pretty-printed capture gives the same events, each at the line its record starts on',
    (path, cuts) => {
      const records = recordsOf(path);
      const text = LAYOUTS['jq -s .']?.(records) ?? '';
      const events = normalizeChunks(cutAt(new TextEncoder().encode(text), cuts)).events;
      expect(events).toEqual(normalizeText(text));
      const recordLines = new Set<number>();
      text.split('\n').forEach((line, index) => {
        if (line === '  {') recordLines.add(index + 1);
      });
      for (const event of events) if (event.loc !== undefined) expect(recordLines).toContain(event.loc.line);
    },
  );
});
