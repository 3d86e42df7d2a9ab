import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNdjsonTokenizer, type NdjsonItem } from '@cursor-stream/ndjson';
import { describe, expect, test } from 'vitest';

const REAL_CORPUS = join(import.meta.dirname, '../../../../shared/real-corpus');

function streamFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.ndjson'))
    .map((name) => join(folder, name));
}

describe('every recorded cursor-agent stream', () => {
  const files = [...streamFiles(REAL_CORPUS), ...streamFiles(join(REAL_CORPUS, 'fragments'))];

  test('the real corpus is present', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  test.each(files.map((file) => [file.slice(REAL_CORPUS.length + 1), file]))(
    '%s: every line is a record, none is a problem',
    (_name, file) => {
      const bytes = readFileSync(file);
      const items: NdjsonItem[] = [];
      const tokenizer = createNdjsonTokenizer({ objectsOnly: true });
      items.push(...tokenizer.feed(bytes), ...tokenizer.end());

      const lines = bytes
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim() !== '');
      expect(items.filter((item) => 'code' in item)).toEqual([]);
      expect(items.map((item) => ('value' in item ? item.value : undefined))).toEqual(
        lines.map((line) => JSON.parse(line)),
      );
    },
  );
});
