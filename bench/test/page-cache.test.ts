/** Reading a run's input through before it is timed: every byte of a file or a folder, and nothing it must not open. */

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

  it('reads every file of a folder and of the folders in it, once', () => {
    mkdirSync(join(directory, 'logs', 'nested'), { recursive: true });
    writeFileSync(join(directory, 'logs', 'a.ndjson'), 'a'.repeat(10));
    writeFileSync(join(directory, 'logs', 'nested', 'b.ndjson'), 'b'.repeat(20));
    // A link to a file is read as the file; a link to a folder is not followed, which would read it twice.
    symlinkSync(join(directory, 'logs', 'a.ndjson'), join(directory, 'logs', 'link.ndjson'));
    symlinkSync(join(directory, 'logs', 'nested'), join(directory, 'logs', 'nested-link'));
    expect(readThrough(join(directory, 'logs'))).toBe(10 + 20 + 10);
  });

  it('passes over what it cannot or must not read: a missing path, a named pipe', () => {
    expect(readThrough(join(directory, 'missing.ndjson'))).toBe(0);
    const pipe = join(directory, 'pipe.ndjson');
    // Opening a pipe with no writer would wait for one.
    execFileSync('mkfifo', [pipe]);
    writeFileSync(join(directory, 'a.ndjson'), 'abc');
    expect(readThrough(directory)).toBe(3);
  });
});
