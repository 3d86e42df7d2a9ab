import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CanonicalEvent, reduceSessions } from '@cursor-stream/core';
import { BUILT_IN_DIALECT_REGISTRY } from '@cursor-stream/core/dialect-registry';
import { cutAt } from '@cursor-stream/test-kit/chunking';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { normalizeChunks, normalizeText } from './support.ts';

const recordings = BUILT_IN_DIALECT_REGISTRY.flatMap(({ name: dialect, corpusFolder: folder }) =>
  readdirSync(join(CORPUS_DIR, folder))
    // `.log`: records logged after a prefix (a time, a direction), as some clients write them.
    .filter((name) => /\.(ndjson|log)$/.test(name))
    .map((name) => ({ dialect, folder, name, path: join(CORPUS_DIR, folder, name) })),
);

/**
 * The tokenizer's `invalid-json` message quotes the engine's `JSON.parse` error, whose wording changes between Node
 * versions; only its stable lead is compared.
 */
function stable(events: readonly CanonicalEvent[]): unknown[] {
  return events.map((event) =>
    event.type === 'invalid-line' ? { ...event, message: event.message.split(':')[0] } : event,
  );
}

describe('golden recordings', () => {
  test('there is at least one recording per dialect', () => {
    for (const { name } of BUILT_IN_DIALECT_REGISTRY)
      expect(recordings.some((r) => r.dialect === name)).toBe(true);
  });

  for (const { dialect, folder, name, path } of recordings) {
    test(`${folder}/${name} normalizes to the events beside it, detected as ${dialect}`, () => {
      const expected = JSON.parse(
        readFileSync(path.replace(/\.(ndjson|log)$/, '.events.json'), 'utf8'),
      ) as CanonicalEvent[];
      const { events, normalizer } = normalizeChunks([readFileSync(path)]);
      expect(stable(events)).toEqual(stable(expected));
      expect(normalizer.dialect).toBe(dialect);
      // Each session is named by the dialect that read it, the recording's.
      expect(reduceSessions(events).map((session) => session.dialect)).toEqual(
        reduceSessions(expected).map(() => dialect),
      );
    });

    test.prop([fc.array(fc.nat(), { maxLength: 12 })])(
      `${folder}/${name} cut into any chunks gives the same events`,
      (cuts) => {
        const text = readFileSync(path, 'utf8');
        const whole = normalizeText(text);
        const chunked = normalizeChunks(cutAt(text, cuts)).events;
        expect(chunked).toEqual(whole);
        // The dialect the normalizer marks each session with, which no event shows, too.
        expect(reduceSessions(chunked).map((session) => session.dialect)).toEqual(
          reduceSessions(whole).map((session) => session.dialect),
        );
      },
    );
  }
});
