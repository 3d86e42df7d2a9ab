import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LogSource, openLog, READ_CHUNK_BYTES } from '@cursor-stream/node/logs';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const NO_STDIN: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: async function* () {} };

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'open-log-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function opened(path: string): Promise<LogSource> {
  const result = await openLog(path, { stdin: NO_STDIN });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Every chunk copied as it comes: a chunk is valid only until the next is asked for. */
async function bytesOf(source: LogSource): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source.chunks) chunks.push(chunk.slice());
  await source.close();
  return Buffer.concat(chunks);
}

function patterned(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed) & 0xff;
  return bytes;
}

describe('openLog on a regular file', () => {
  test.prop([fc.integer({ min: 0, max: 40 * READ_CHUNK_BYTES + 17 }), fc.integer({ min: 0, max: 255 })], {
    numRuns: 12,
  })('delivers every byte in order, in chunks no larger than a read', async (size, seed) => {
    const file = join(directory, `file-${size}-${seed}`);
    const content = patterned(size, seed);
    await writeFile(file, content);
    const source = await opened(file);
    expect(source.size).toBe(size);
    const chunks: Uint8Array[] = [];
    for await (const chunk of source.chunks) chunks.push(chunk.slice());
    await source.close();
    expect(chunks.every((chunk) => chunk.length > 0 && chunk.length <= READ_CHUNK_BYTES)).toBe(true);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
  });

  it('reads a regular file into one buffer, refilled for each chunk', async () => {
    const file = join(directory, 'refilled');
    const content = patterned(5 * READ_CHUNK_BYTES + 9, 3);
    await writeFile(file, content);
    const source = await opened(file);
    const copies: Uint8Array[] = [];
    const buffers = new Set<ArrayBufferLike>();
    for await (const chunk of source.chunks) {
      copies.push(chunk.slice());
      buffers.add(chunk.buffer);
    }
    await source.close();
    expect(Buffer.concat(copies).equals(content)).toBe(true);
    expect(copies.length).toBe(6);
    expect(buffers.size).toBe(1);
  });

  it('reads nothing more once closed, and closes once however often asked', async () => {
    const file = join(directory, 'closed');
    await writeFile(file, patterned(40 * READ_CHUNK_BYTES, 9));
    const source = await opened(file);
    const iterator = source.chunks[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    await source.close();
    await source.close();
    expect((await iterator.next()).done).toBe(true);
  });
});

/** Every chunk of a source read synchronously, copied. */
function syncBytesOf(source: LogSource): Buffer {
  const read = source.readChunkSync;
  if (read === undefined) throw new Error('not read synchronously');
  const chunks: Uint8Array[] = [];
  for (let chunk = read(); chunk !== null; chunk = read()) chunks.push(chunk.slice());
  return Buffer.concat(chunks);
}

describe('openLog on a regular file, read synchronously', () => {
  test.prop([fc.integer({ min: 0, max: 5 * READ_CHUNK_BYTES + 17 }), fc.integer({ min: 0, max: 255 })], {
    numRuns: 12,
  })('gives the bytes its chunks give', async (size, seed) => {
    const file = join(directory, `sync-${size}-${seed}`);
    const content = patterned(size, seed);
    await writeFile(file, content);
    const source = await opened(file);
    expect(syncBytesOf(source).equals(content)).toBe(true);
    expect(source.readChunkSync?.()).toBeNull();
    await source.close();
  });

  it('ends at a short read that reaches the size the file had when opened', async () => {
    const file = join(directory, 'grown');
    await writeFile(file, patterned(100, 4));
    const source = await opened(file);
    expect(source.readChunkSync?.()?.length).toBe(100);
    await appendFile(file, patterned(50, 5));
    expect(source.readChunkSync?.()).toBeNull();
    await source.close();
  });

  it('reads files one after another into one buffer, and files side by side into their own', async () => {
    const [first, second] = [join(directory, 'first'), join(directory, 'second')];
    await writeFile(first, patterned(3 * READ_CHUNK_BYTES + 1, 6));
    await writeFile(second, patterned(READ_CHUNK_BYTES - 1, 7));
    const buffers = new Set<ArrayBufferLike>();
    for (const file of [first, second]) {
      const source = await opened(file);
      for await (const chunk of source.chunks) buffers.add(chunk.buffer);
      await source.close();
    }
    expect(buffers.size).toBe(1);
    const [a, b] = [await opened(first), await opened(second)];
    const read = (source: LogSource) => source.readChunkSync?.() ?? new Uint8Array(0);
    const [fromA, fromB] = [read(a), read(b)];
    expect(fromA.buffer).not.toBe(fromB.buffer);
    expect(
      Buffer.from(fromA).equals(patterned(3 * READ_CHUNK_BYTES + 1, 6).subarray(0, READ_CHUNK_BYTES)),
    ).toBe(true);
    expect(Buffer.from(fromB).equals(patterned(READ_CHUNK_BYTES - 1, 7))).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('openLog of a path listed as a regular file', () => {
  it('reads the file synchronously, the same bytes', async () => {
    const file = join(directory, 'listed.ndjson');
    const content = patterned(2 * READ_CHUNK_BYTES + 3, 9);
    await writeFile(file, content);
    const result = await openLog(file, { stdin: NO_STDIN, regularFile: true });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.readChunkSync).toBeDefined();
    expect((await bytesOf(result.value)).equals(content)).toBe(true);
  });

  it('still finds a directory that took its place, and says so', async () => {
    const path = join(directory, 'replaced.ndjson');
    await mkdir(path);
    const result = await openLog(path, { stdin: NO_STDIN, regularFile: true });
    expect(result.ok ? 'opened' : result.error.code).toBe('is-a-directory');
  });
});

describe('openLog on a named pipe', () => {
  it('streams it instead of reading synchronously', async () => {
    const fifo = join(directory, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const content = patterned(3 * READ_CHUNK_BYTES + 5, 1);
    // Opening either end waits for the other, and the writer waits for reads once the pipe is full: all at once.
    const read = opened(fifo).then(async (source) => ({ size: source.size, bytes: await bytesOf(source) }));
    const [{ size, bytes }] = await Promise.all([read, writeFile(fifo, content)]);
    expect(size).toBe(0);
    expect(bytes.equals(content)).toBe(true);
  });
});
