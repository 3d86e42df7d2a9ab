import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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
