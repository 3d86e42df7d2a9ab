import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createNdjsonTokenizer, type NdjsonItem } from '@cursor-stream/ndjson';
import { OWN_STREAMS, REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { describe, expect, test } from 'vitest';

describe('every recorded cursor-agent stream of the real shapes', () => {
  // The repository's own recordings, then the real ones (and their fragments) when they are beside it.
  const files = [...OWN_STREAMS, ...REAL_CORPUS.ndjsonFiles(), ...REAL_CORPUS.ndjsonFiles('fragments')];

  test('the recordings are present', () => {
    expect(files.length).toBeGreaterThanOrEqual(OWN_STREAMS.length + (REAL_CORPUS.present ? 10 : 0));
  });

  test.each(files.map((file) => [basename(file), file]))(
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
