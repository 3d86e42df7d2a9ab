import { appendFile, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { followFile } from '../src/input/follow-file.ts';

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
