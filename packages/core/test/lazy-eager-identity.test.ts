/**
 * Lazy and eager reading give the same events on every recording: with every string of every held line left
 * undecoded until read (bounds of one byte, input fed seven bytes at a time), the events written, their pieces joined
 * and the sessions' summaries equal those of a plain eager read of the whole text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  type CanonicalEvent,
  createNormalizer,
  createSessionReducer,
  type EventPiece,
  type NormalizerOptions,
  stringifyEvent,
  stringifyEventPieces,
} from '@cursor-stream/core';
import { CORPUS_DIR, REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { describe, expect, test } from 'vitest';

/** Every recording of the repository (not the benchmark's generated corpora), then the real ones when beside it. */
const recordings = [
  ...readdirSync(CORPUS_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ndjson') && !file.startsWith('generated'))
    .map((file) => join(CORPUS_DIR, file)),
  ...REAL_CORPUS.ndjsonFiles(),
];

const EVERY_STRING = { lineBytes: 1, stringBytes: 1 };

/** Pieces copied from the input across the recordings, so the last test can tell the lazy path really ran. */
let copiedPieces = 0;

function normalizeBytes(bytes: Uint8Array, chunkBytes: number, options: NormalizerOptions): CanonicalEvent[] {
  const normalizer = createNormalizer(options);
  const events: CanonicalEvent[] = [];
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    events.push(...normalizer.feed(bytes.subarray(at, at + chunkBytes)));
  }
  events.push(...normalizer.end());
  return events;
}

const encoder = new TextEncoder();

function joined(pieces: readonly EventPiece[]): string {
  const bytes = pieces.map((piece) => (typeof piece === 'string' ? encoder.encode(piece) : piece));
  return new TextDecoder().decode(Buffer.concat(bytes));
}

function summaries(events: readonly CanonicalEvent[]): unknown {
  const reducer = createSessionReducer();
  for (const event of events) reducer.push(event);
  return reducer.sessions();
}

describe('lazy and eager reading', () => {
  test('there are recordings to compare', () => {
    expect(recordings.length).toBeGreaterThan(10);
  });

  for (const path of recordings) {
    test(`${basename(path)} gives the same events, lines and summaries`, () => {
      const bytes = readFileSync(path);
      const eager = normalizeBytes(bytes, bytes.length || 1, { lazyStrings: false });
      const lazy = normalizeBytes(bytes, 7, { lazyStrings: EVERY_STRING });
      // Pieces first: writing an event whole reads (decodes) its strings, after which nothing is left to copy.
      const pieces = lazy.map((event) => stringifyEventPieces(event));
      copiedPieces += pieces.flat().filter((piece) => typeof piece !== 'string').length;
      expect(pieces.map(joined)).toEqual(eager.map(stringifyEvent));
      expect(lazy.map(stringifyEvent)).toEqual(eager.map(stringifyEvent));
      expect(summaries(lazy)).toEqual(summaries(eager));
    });
  }

  test('the lazy reads left strings undecoded: some events were written partly from the input bytes', () => {
    expect(copiedPieces).toBeGreaterThan(0);
  });
});
