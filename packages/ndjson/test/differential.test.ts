/**
 * Differential test against stream-json's JSONL parser, a widely used implementation, on input it handles: no raw
 * line breaks inside strings and no whitespace-only lines. Both must read the same values under the same chunking.
 */
import { Readable } from 'node:stream';
import type { NdjsonRecord } from '@cursor-stream/ndjson';
import { cutAt } from '@cursor-stream/test-kit/chunking';
import { fc, test } from '@fast-check/vitest';
import jsonlParser from 'stream-json/jsonl/parser.js';
import { expect } from 'vitest';
import { encodeUtf8, tokenize, trickyJsonObject } from './support.ts';

async function parseWithStreamJson(chunks: Uint8Array[]): Promise<unknown[]> {
  const values: unknown[] = [];
  const stream = Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(jsonlParser.asStream());
  for await (const item of stream) values.push((item as { value: unknown }).value);
  return values;
}

test.prop([
  fc.array(fc.oneof(trickyJsonObject, fc.jsonValue()), { maxLength: 15 }),
  fc.boolean(),
  fc.boolean(),
  fc.array(fc.nat(), { maxLength: 12 }),
])(
  'reads the same values as stream-json under the same chunking',
  async (values, crlf, finalNewline, cuts) => {
    const eol = crlf ? '\r\n' : '\n';
    const text =
      values.map((value) => JSON.stringify(value)).join(eol) + (finalNewline && values.length > 0 ? eol : '');
    const chunks = cutAt(encodeUtf8(text), cuts);
    const ours = tokenize(chunks).items.map((item) => (item as NdjsonRecord).value);
    expect(ours).toEqual(await parseWithStreamJson(chunks));
  },
);
