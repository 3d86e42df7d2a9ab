import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  type CanonicalEvent,
  type Dialect,
  DialectEncoderTransformStream,
  NormalizerTransformStream,
  officialDialect,
  payloadEnvelopeDialect,
} from '@cursor-stream/core';
import { cutAt } from '@cursor-stream/test-kit/chunking';
import { CORPUS_DIR, OWN_STREAMS, REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { normalizeText, withoutLoc } from './support.ts';

/** A web stream of `chunks`. */
function streamOf<T>(chunks: readonly T[]): ReadableStream<T> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream as unknown as AsyncIterable<T>) items.push(item);
  return items;
}

/** Canonical events encoded as `dialect` NDJSON, one line per chunk. */
function encodeAs(dialect: Dialect, events: readonly CanonicalEvent[]): Promise<string[]> {
  return collect(streamOf(events).pipeThrough(new DialectEncoderTransformStream(dialect)));
}

const DOCS_EXAMPLE = readFileSync(join(CORPUS_DIR, 'official/docs-example-zh.ndjson'), 'utf8');
/** The repository's own recordings of the real shapes, and the real recordings when they are beside it. */
const realStreams = [...OWN_STREAMS, ...REAL_CORPUS.ndjsonFiles()];

describe('NormalizerTransformStream', () => {
  test.prop([fc.array(fc.nat({ max: DOCS_EXAMPLE.length }), { maxLength: 12 })])(
    'gives the normalizer’s events for any chunking of the input',
    async (cuts) => {
      const events = await collect(
        streamOf(cutAt(DOCS_EXAMPLE, cuts)).pipeThrough(new NormalizerTransformStream()),
      );
      expect(events).toEqual(normalizeText(DOCS_EXAMPLE));
    },
  );

  test('takes bytes as well as text', async () => {
    const bytes = new TextEncoder().encode(DOCS_EXAMPLE);
    const chunks = [bytes.subarray(0, 301), bytes.subarray(301)];
    const events = await collect(streamOf(chunks).pipeThrough(new NormalizerTransformStream()));
    expect(events).toEqual(normalizeText(DOCS_EXAMPLE));
  });

  test('refuses an unknown dialect name', () => {
    expect(() => new NormalizerTransformStream({ dialect: 'no-such-dialect' })).toThrow(/Unknown dialect/);
  });
});

describe('DialectEncoderTransformStream', () => {
  for (const dialect of [payloadEnvelopeDialect, officialDialect]) {
    for (const path of realStreams) {
      test(`${basename(path)} read back from ${dialect.name} NDJSON gives the same events apart from loc`, async () => {
        const events = normalizeText(readFileSync(path));
        const lines = await encodeAs(dialect, events);
        expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
        const again = await collect(streamOf(lines).pipeThrough(new NormalizerTransformStream()));
        expect(withoutLoc(again)).toEqual(withoutLoc(events));
      });
    }
  }

  test('an error before a failed finish reaches the official encoder with it, whatever the chunking', async () => {
    const events: CanonicalEvent[] = [
      { type: 'stream-start', sessionId: 's' },
      { type: 'error', message: 'Something broke', sessionId: 's' },
      { type: 'finish', finishReason: 'error', isError: true, pendingToolCallIds: [], sessionId: 's' },
    ];
    const lines = await encodeAs(officialDialect, events);
    expect(lines.map((line) => JSON.parse(line))).toEqual(officialDialect.encode?.(events));
    expect(lines.at(-1)).toContain('"errors":["Something broke"]');
  });

  test('writes no line for what a dialect cannot express: invalid-line and a synthesized incomplete finish', async () => {
    const events = normalizeText('{"type":"system","subtype":"init","session_id":"s"}\nnot json\n');
    expect(events.map((event) => event.type)).toEqual(['stream-start', 'invalid-line', 'finish']);
    const lines = await encodeAs(payloadEnvelopeDialect, events);
    expect(lines).toEqual(['{"type":"system","subtype":"init","payload":{"session_id":"s"}}\n']);
  });

  test('a trailing error with nothing after it is still written', async () => {
    const lines = await encodeAs(payloadEnvelopeDialect, [{ type: 'error', message: 'lost connection' }]);
    expect(lines).toEqual(['{"type":"error","message":"lost connection"}\n']);
  });

  test('refuses a dialect that cannot encode', () => {
    const { encode: _encode, ...decodeOnly } = payloadEnvelopeDialect;
    expect(() => new DialectEncoderTransformStream({ ...decodeOnly, name: 'decode-only' })).toThrow(
      TypeError,
    );
  });
});
