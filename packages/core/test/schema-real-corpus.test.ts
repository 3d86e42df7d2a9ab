import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { type JsonObject, validateDialectRecord } from '@cursor-stream/core';
import { OWN_STREAMS, REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { describe, expect, test } from 'vitest';

/**
 * The tool kind of each tool-call body in the fragments file, by line. Line 1 is a wrapper's envelope whose `payload`
 * is a shell body; the lines after the bodies are events.
 */
const FRAGMENT_BODY_KINDS: Readonly<Record<number, string>> = {
  1: 'shellToolCall',
  2: 'shellToolCall',
  3: 'grepToolCall',
  4: 'grepToolCall',
  5: 'readToolCall',
  6: 'readToolCall',
  7: 'editToolCall',
  8: 'editToolCall',
};

function records(path: string): { line: number; record: JsonObject }[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((text, index) => ({ line: index + 1, text }))
    .filter(({ text }) => text.trim() !== '')
    .map(({ line, text }) => ({ line, record: JSON.parse(text) as JsonObject }));
}

/** A completed `tool_call` record around a bare tool-call body, so the official schema checks the body. */
function completedToolCall(kind: string, body: unknown): JsonObject {
  return { type: 'tool_call', subtype: 'completed', call_id: 'fragment', tool_call: { [kind]: body } };
}

/** The repository's recordings of the real shapes, then the real recordings when they are beside it. */
const streams = [...OWN_STREAMS, ...REAL_CORPUS.ndjsonFiles()];

describe('the official schema and the recordings of the real shapes', () => {
  test('the folders hold the recordings', () => {
    expect(streams.length).toBeGreaterThanOrEqual(OWN_STREAMS.length + (REAL_CORPUS.present ? 10 : 0));
  });

  for (const path of streams) {
    const name = basename(path);
    const lines = records(path);

    test(`every line of ${name} is valid`, () => {
      const invalid = lines
        .map(({ line, record }) => ({ line, issues: validateDialectRecord('official', record) }))
        .filter(({ issues }) => issues.length > 0);
      expect(invalid).toEqual([]);
    });

    test(`every line of ${name} is valid in strict mode too: the schema names every field it holds`, () => {
      const invalid = lines
        .map(({ line, record }) => ({
          line,
          issues: validateDialectRecord('official', record, { strict: true }),
        }))
        .filter(({ issues }) => issues.length > 0);
      expect(invalid).toEqual([]);
    });
  }

  test.skipIf(!REAL_CORPUS.present)(
    `the tool-call bodies and events of the fragments are valid, strict mode included ${REAL_CORPUS.needs}`,
    () => {
      const [fragments] = REAL_CORPUS.ndjsonFiles('fragments');
      const checked = records(fragments ?? '').map(({ line, record }) => {
        const kind = FRAGMENT_BODY_KINDS[line];
        const body = line === 1 ? record.payload : record;
        const asRecord = kind === undefined ? record : completedToolCall(kind, body);
        return { line, kind, issues: validateDialectRecord('official', asRecord, { strict: true }) };
      });
      expect(checked.filter(({ kind }) => kind !== undefined)).toHaveLength(8);
      expect(checked.length).toBeGreaterThan(8);
      expect(checked.filter(({ issues }) => issues.length > 0)).toEqual([]);
    },
  );
});
