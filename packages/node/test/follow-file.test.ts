import { appendFile, mkdtemp, open, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { followFile } from '@cursor-stream/node/logs';
import { expect, test } from 'vitest';

test('following a growing file passes on whole lines only, and drops an unfinished one when stopped', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'follow-'));
  const path = join(dir, 'log.ndjson');
  await writeFile(path, 'one\ntw');
  const handle = await open(path, 'r');
  const stop = new AbortController();
  const seen: string[] = [];
  try {
    for await (const chunk of followFile(handle, stop.signal)) {
      seen.push(Buffer.from(chunk).toString('utf8'));
      const text = seen.join('');
      if (text === 'one\n') await appendFile(path, 'o\nthr');
      if (text === 'one\ntwo\n') stop.abort();
    }
  } finally {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  }
  expect(seen.join('')).toBe('one\ntwo\n');
});

test('a file truncated while followed is said and read again from its start, a line cut by it ended', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'follow-'));
  const path = join(dir, 'log.ndjson');
  await writeFile(path, 'first\nsecond\nunfinished');
  const handle = await open(path, 'r');
  const stop = new AbortController();
  const seen: string[] = [];
  let truncations = 0;
  try {
    const onTruncated = () => {
      truncations += 1;
    };
    for await (const chunk of followFile(handle, stop.signal, onTruncated)) {
      seen.push(Buffer.from(chunk).toString('utf8'));
      const text = seen.join('');
      // Rewritten shorter than what was read, as `> log` or a copytruncate rotation does.
      if (text === 'first\nsecond\n') await writeFile(path, 'new\n');
      if (text.endsWith('new\n')) {
        await appendFile(path, 'more\n');
      }
      if (text.endsWith('more\n')) stop.abort();
    }
  } finally {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  }
  expect(truncations).toBe(1);
  expect(seen.join('')).toBe('first\nsecond\nunfinished\nnew\nmore\n');
});

test('a file replaced under its name (rotated, an atomic rename) is said, and the new one followed from its start', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'follow-'));
  const path = join(dir, 'log.ndjson');
  await writeFile(path, 'old one\nold two\nold unfinished');
  const handle = await open(path, 'r');
  const stop = new AbortController();
  const seen: string[] = [];
  let replacements = 0;
  let truncations = 0;
  try {
    const byName = {
      path,
      onReplaced: () => {
        replacements += 1;
      },
    };
    const onTruncated = () => {
      truncations += 1;
    };
    for await (const chunk of followFile(handle, stop.signal, onTruncated, byName)) {
      seen.push(Buffer.from(chunk).toString('utf8'));
      const text = seen.join('');
      if (text === 'old one\nold two\n') {
        // The writer ends its file, and a new one takes the name, as logrotate or `mv tmp log` leaves it.
        await appendFile(path, ' line\n');
        await writeFile(join(dir, 'next.tmp'), 'new one\n');
        await rename(join(dir, 'next.tmp'), path);
      }
      if (text.endsWith('new one\n')) await appendFile(path, 'new two\n');
      if (text.endsWith('new two\n')) stop.abort();
    }
  } finally {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  }
  expect([replacements, truncations]).toEqual([1, 0]);
  expect(seen.join('')).toBe('old one\nold two\nold unfinished line\nnew one\nnew two\n');
});
