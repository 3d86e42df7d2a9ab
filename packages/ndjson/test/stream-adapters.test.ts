import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  isNdjsonProblem,
  iterateNdjson,
  type NdjsonItem,
  NdjsonTransformStream,
} from '@cursor-stream/ndjson';
import { describe, expect, test } from 'vitest';
import { encodeUtf8, tokenize } from './support.ts';

const input =
  '\uFEFF{"type":"system","subtype":"init"}\r\n\nnoise\n{"call_id":"call_a\nfc_b"}\n{"type":"result"';
const expected = tokenize([encodeUtf8(input)]).items;

async function collect(iterable: AsyncIterable<NdjsonItem>): Promise<NdjsonItem[]> {
  const items: NdjsonItem[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

function readableOf<T>(chunks: readonly T[]): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

function byteChunks(text: string, size: number): Uint8Array[] {
  const bytes = encodeUtf8(text);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.slice(at, at + size));
  return chunks;
}

describe('iterateNdjson', () => {
  test('reads a Node file stream', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ndjson-'));
    try {
      const file = join(dir, 'input.ndjson');
      writeFileSync(file, input);
      expect(await collect(iterateNdjson(createReadStream(file, { highWaterMark: 7 })))).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('reads a WHATWG ReadableStream, such as a fetch body', async () => {
    const body = new Response(input).body;
    if (body === null) throw new Error('Response has no body');
    expect(await collect(iterateNdjson(body))).toEqual(expected);
  });

  test('reads a plain iterable of mixed string and byte chunks', async () => {
    const chunks = [
      '\uFEFF{"type":"system",',
      encodeUtf8('"subtype":"init"}\r\n\nnoise\n{"call_id":"call_a\nfc_b"}\n'),
      '{"type":"result"',
    ];
    expect(await collect(iterateNdjson(chunks))).toEqual(expected);
  });

  test('a Node Readable of object chunks works as an async iterable', async () => {
    expect(await collect(iterateNdjson(Readable.from(byteChunks(input, 3))))).toEqual(expected);
  });
});

describe('NdjsonTransformStream', () => {
  test('pipes bytes to records and problems in input order', async () => {
    const stream = readableOf(byteChunks(input, 5)).pipeThrough(new NdjsonTransformStream());
    const items = await collect(stream);
    expect(items).toEqual(expected);
    expect(items.map((item) => (isNdjsonProblem(item) ? item.code : 'record'))).toEqual([
      'record',
      'non-json-output',
      'record',
      'truncated',
    ]);
  });

  test('takes the tokenizer options', async () => {
    const stream = readableOf<string | Uint8Array>(['42\n{"a":1}\n']).pipeThrough(
      new NdjsonTransformStream({ objectsOnly: true }),
    );
    expect((await collect(stream)).map((item) => (isNdjsonProblem(item) ? item.code : item.value))).toEqual([
      'not-an-object',
      { a: 1 },
    ]);
  });
});

describe('readChunks edge cases', () => {
  test('a string source is one chunk, not one per character', async () => {
    expect(await collect(iterateNdjson('{"a":1}\n{"b":2}\n'))).toEqual(
      tokenize(['{"a":1}\n{"b":2}\n']).items,
    );
  });

  test('stopping early cancels a stream read through its reader, as in browsers without stream iteration', async () => {
    let cancelled = false;
    const stream = new ReadableStream<string>({
      pull(controller) {
        controller.enqueue('{"a":1}\n');
      },
      cancel() {
        cancelled = true;
      },
    });
    const prototype = ReadableStream.prototype as unknown as Record<symbol, unknown>;
    const iterator = prototype[Symbol.asyncIterator];
    delete prototype[Symbol.asyncIterator];
    try {
      expect(Symbol.asyncIterator in stream).toBe(false);
      for await (const item of iterateNdjson(stream)) {
        expect(item).toMatchObject({ value: { a: 1 } });
        break;
      }
    } finally {
      prototype[Symbol.asyncIterator] = iterator;
    }
    expect(cancelled).toBe(true);
  });
});
