/** Reading a run's input through before it is timed: every byte the run reads, and nothing it must not open. */

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readThrough } from '../src/page-cache.ts';

let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'cursor-stream-page-cache-'));
});

afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('readThrough', () => {
  it('reads a file to its end, past one read', () => {
    const file = join(directory, 'big.ndjson');
    writeFileSync(file, Buffer.alloc(3 * 1024 * 1024 + 17, 0x61));
    expect(readThrough(file)).toBe(3 * 1024 * 1024 + 17);
  });

  it("reads every file of a folder, as a run over the folder reads them, and passes over what isn't one", () => {
    writeFileSync(join(directory, 'a.ndjson'), 'a'.repeat(10));
    writeFileSync(join(directory, 'b.ndjson'), 'b'.repeat(20));
    mkdirSync(join(directory, 'nested'));
    // Opening a pipe with no writer would wait for one.
    execFileSync('mkfifo', [join(directory, 'pipe.ndjson')]);
    expect(readThrough(directory)).toBe(30);
  });

  it('gives 0 for a path that is not there', () => {
    expect(readThrough(join(directory, 'missing.ndjson'))).toBe(0);
  });
});
