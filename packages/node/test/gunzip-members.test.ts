import { gzipSync } from 'node:zlib';
import { decompressedChunks, type GzipTrailingProblem } from '@cursor-stream/node/logs';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { gunzipMembers } from '../src/logs/gunzip-members.ts';

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Like a file read into one buffer: each chunk is written over by the next. */
async function* refilled(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  const buffer = new Uint8Array(size);
  for (let at = 0; at < bytes.length; at += size) {
    const piece = bytes.subarray(at, at + size);
    buffer.set(piece);
    yield buffer.subarray(0, piece.length);
  }
}

async function gunzip(bytes: Uint8Array, size = 65536) {
  const problems: GzipTrailingProblem[] = [];
  const parts: Uint8Array[] = [];
  for await (const part of gunzipMembers(chunked(bytes, size), (problem) => problems.push(problem)))
    parts.push(part);
  return { text: Buffer.concat(parts).toString('utf8'), problems };
}

const LOG =
  '{"type":"system","subtype":"init","session_id":"s","model":"m"}\n{"type":"result","result":"ok"}\n';

describe('gunzipMembers', () => {
  test.prop([
    fc.array(fc.string({ maxLength: 300 }), { minLength: 1, maxLength: 3 }),
    fc.integer({ min: 1, max: 64 }),
  ])('decodes one or more members to exactly their text, however the input is cut', async (texts, size) => {
    const input = Buffer.concat(texts.map((text) => gzipSync(text)));
    expect(await gunzip(input, size)).toEqual({ text: texts.join(''), problems: [] });
  });

  test.prop([fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 64 })])(
    'delivers everything before trailing garbage, then locates the garbage, like gzip -dc',
    async (garbage, size) => {
      fc.pre(garbage[0] !== 0x1f);
      const member = gzipSync(LOG);
      const { text, problems } = await gunzip(Buffer.concat([member, garbage]), size);
      expect(text).toBe(LOG);
      expect(problems).toEqual([
        {
          offset: member.length,
          message: `${garbage.length} bytes after the gzip data are not gzip (ignored, as gzip -dc does)`,
        },
      ]);
    },
  );

  test('a member cut short delivers what it decodes and says it ends early', async () => {
    const member = gzipSync(LOG.repeat(50));
    const { text, problems } = await gunzip(member.subarray(0, member.length - 4), 16);
    expect(LOG.repeat(50).startsWith(text)).toBe(true);
    expect(problems.map((problem) => problem.message)).toEqual([
      'the gzip data ends early (its last member has no trailer)',
    ]);
  });

  // Past the first writes to zlib (4 KiB each), which decode before the corruption is met.
  test.prop([fc.integer({ min: 9000, max: 20000 }), fc.integer({ min: 64, max: 8192 })], { numRuns: 30 })(
    'a member corrupt part-way ends with what it decoded and a located problem, never waiting forever',
    async (at, size) => {
      // Text that does not repeat, so that its deflate data is long and a byte changed in it is read as data.
      const text = Array.from({ length: 4000 }, (_, index) => `${LOG.trim()}${index * 7919}\n`).join('');
      const member = Buffer.from(gzipSync(text));
      expect(member.length).toBeGreaterThan(20000);
      member[at] = (member[at] ?? 0) ^ 0xff;
      const { text: decoded, problems } = await gunzip(member, size);
      // Deflate data does not check itself: a changed byte may decode to other text before zlib or the checksum notices.
      expect(decoded.length).toBeGreaterThan(0);
      // A changed byte near a member's end may also leave bytes after it that are not gzip: said after it.
      expect(problems.length).toBeGreaterThan(0);
      expect(problems[0]?.offset).toBeGreaterThan(0);
      expect(problems[0]?.message).toMatch(/corrupt|ends early|checksum/);
    },
  );

  test('an input that is not gzip at all is an error before any output', async () => {
    await expect(gunzip(Buffer.from('{"type":"user"}\n'))).rejects.toMatchObject({ code: 'Z_DATA_ERROR' });
  });
});

describe('decompressedChunks', () => {
  test.prop([
    fc.array(fc.string({ maxLength: 2000 }), { minLength: 1, maxLength: 3 }),
    fc.integer({ min: 1, max: 64 }),
  ])('decodes a source that refills one buffer, as a file is read', async (texts, size) => {
    const input = Buffer.concat(texts.map((text) => gzipSync(text)));
    const parts: Uint8Array[] = [];
    for await (const part of decompressedChunks('log.ndjson.gz', refilled(input, size)))
      parts.push(part.slice());
    expect(Buffer.concat(parts).toString('utf8')).toBe(texts.join(''));
  });
});
