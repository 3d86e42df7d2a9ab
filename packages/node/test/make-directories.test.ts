import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_PARENTS_MADE, makeDirectories } from '@cursor-stream/node/make-directories';
import { afterAll, describe, expect, test } from 'vitest';

const scratch = mkdtempSync(join(tmpdir(), 'cursor-stream-dirs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('makeDirectories', () => {
  test('makes a folder and the missing ones above it, with the mode given, and takes one that is there', () => {
    const deep = join(scratch, 'a', 'b', 'c');
    makeDirectories(deep, 0o700);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(join(scratch, 'a')).mode & 0o777).toBe(0o700 & ~process.umask());
    expect(() => makeDirectories(deep)).not.toThrow();
  });

  test('throws what the file system says where a file stands in the way', () => {
    const file = join(scratch, 'file');
    writeFileSync(file, '');
    expect(() => makeDirectories(join(file, 'below'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  test('makes no more than its cap of missing parents', () => {
    const tooDeep = join(scratch, ...Array.from({ length: MAX_PARENTS_MADE + 2 }, (_, index) => `d${index}`));
    expect(() => makeDirectories(tooDeep)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  test.skipIf(process.platform !== 'linux')(
    'fails, where recursive mkdirSync would retry forever, under a folder that takes none (procfs)',
    () => {
      expect(() => makeDirectories('/proc/cursor-stream-test/runs')).toThrow(
        expect.objectContaining({ code: 'ENOENT' }),
      );
      expect(existsSync('/proc/cursor-stream-test')).toBe(false);
    },
  );
});
