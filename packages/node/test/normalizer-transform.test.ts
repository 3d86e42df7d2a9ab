import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CanonicalEvent } from '@cursor-stream/core';
import { createNormalizerTransform } from '@cursor-stream/node';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { describe, expect, test } from 'vitest';
import { normalizeFile } from './support.ts';

async function eventsThrough(source: Readable): Promise<CanonicalEvent[]> {
  const events: CanonicalEvent[] = [];
  await pipeline(source, createNormalizerTransform(), async (stream: AsyncIterable<CanonicalEvent>) => {
    for await (const event of stream) events.push(event);
  });
  return events;
}

describe('createNormalizerTransform', () => {
  test('a file piped through it gives the normalizer’s events', async () => {
    const events = await eventsThrough(createReadStream(DOCS_EXAMPLE, { highWaterMark: 16 }));
    expect(events).toEqual(normalizeFile(DOCS_EXAMPLE));
  });

  test('text chunks give the same events as bytes', async () => {
    const text = readFileSync(DOCS_EXAMPLE, 'utf8');
    const chunks = [...text].map((character) => character);
    expect(await eventsThrough(Readable.from(chunks, { objectMode: false }))).toEqual(
      normalizeFile(DOCS_EXAMPLE),
    );
  });

  test('non-JSON input becomes invalid-line events, not a stream error', async () => {
    const events = await eventsThrough(Readable.from(['Press any key to sign in...\n']));
    expect(events).toMatchObject([
      { type: 'invalid-line', code: 'non-json-output', message: 'Press any key to sign in...' },
      // The CLI's sign-in prompt and nothing else: a run that failed before its first record.
      { type: 'stream-start' },
      { type: 'finish', finishReason: 'incomplete', failure: { code: 'auth' } },
    ]);
  });
});
