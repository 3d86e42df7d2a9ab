import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../src/cli.ts';
import { fakeIo } from './support.ts';

const LOG =
  '{"type":"system","subtype":"init","session_id":"s","model":"m"}\n{"type":"result","result":"ok"}\n';

describe('a gzip log with trailing garbage', () => {
  let scratch = '';
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-gzip-'));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  test('keeps every event, then reports the trailing bytes at their offset and exits 1', async () => {
    const path = join(scratch, 'run.ndjson.gz');
    const member = gzipSync(LOG);
    await writeFile(path, Buffer.concat([member, Buffer.from('garbage!!')]));
    const { io, stdout, stderr } = fakeIo();
    const code = await main(['normalize', path], io);
    expect(code).toBe(1);
    expect(
      stdout.text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line).type),
    ).toEqual(['stream-start', 'finish']);
    expect(stderr.text).toBe(
      `cursor-stream: ${path}: at compressed byte ${member.length}: 9 bytes after the gzip data are not gzip (ignored, as gzip -dc does)\n`,
    );
  });
});
