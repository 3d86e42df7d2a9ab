import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  CANONICAL_EVENT_TYPES,
  type CanonicalEventType,
  createNormalizer,
  EVENT_TRAITS,
} from '@cursor-stream/core';
import { CORPUS_DIR, REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { dialectRecordings, normalizeText } from './support.ts';

const STREAMS = [...REAL_CORPUS.ndjsonFiles(), ...dialectRecordings()];
const NOT_REASONING = CANONICAL_EVENT_TYPES.filter((type) => !EVENT_TRAITS[type].reasoning);

describe('emitting only some event types', () => {
  test.prop([fc.constantFrom(...STREAMS), fc.subarray([...CANONICAL_EVENT_TYPES])])(
    'gives exactly the events of the full run that have those types',
    (file, types) => {
      const input = readFileSync(file);
      const wanted = new Set<CanonicalEventType>(types);
      expect(normalizeText(input, { types })).toEqual(
        normalizeText(input).filter((event) => wanted.has(event.type)),
      );
    },
  );

  /** Streams with thinking records: ours, and a real one with hundreds of them when the real ones are here. */
  const thinkingStreams = [
    join(CORPUS_DIR, 'official/parallel-tools-out-of-order.ndjson'),
    ...REAL_CORPUS.ndjsonFiles().filter((path) => path.endsWith('experiments_direct-sleep.ndjson')),
  ];
  test.each(
    thinkingStreams.flatMap((path) => [
      [basename(path), path, false],
      [`${basename(path)} spaced as Python writes it`, path, true],
    ]),
  )(
    '%s: thinking records are not even parsed when reasoning events are not wanted',
    (_name, path, spaced) => {
      const written = readFileSync(path);
      const input = spaced ? Buffer.from(spacedAsPython(written.toString('utf8'))) : written;
      const parsedTypes: unknown[] = [];
      const normalizer = createNormalizer({
        types: NOT_REASONING,
        onRecord: (record) => parsedTypes.push((record.value as { type?: unknown }).type),
      });
      normalizer.feed(input);
      normalizer.end();
      expect(parsedTypes).not.toContain('thinking');
      expect(parsedTypes.length).toBeGreaterThan(0);
      const lines = input.toString('utf8').trim().split('\n');
      expect(parsedTypes).toHaveLength(lines.filter((line) => !/^\{"type": ?"thinking"/.test(line)).length);
      expect(normalizeText(input, { types: NOT_REASONING })).toEqual(
        normalizeText(input).filter((event) => !EVENT_TRAITS[event.type].reasoning),
      );
    },
  );

  test('a dialect without a skip filter keeps every record parsed, and the output is still filtered', () => {
    const parsed: unknown[] = [];
    const mine = { ...createDialectLike() };
    const normalizer = createNormalizer({
      types: ['user-message'],
      dialects: [mine],
      onRecord: (record) => parsed.push(record.value),
    });
    const events = [
      ...normalizer.feed('{"kind":"say","words":"hi"}\n{"kind":"think"}\n'),
      ...normalizer.end(),
    ];
    expect(parsed).toHaveLength(2);
    expect(events.map((event) => event.type)).toEqual(['user-message']);
  });
});

function createDialectLike() {
  return {
    name: 'chat',
    description: 'A tiny dialect with no skip filter.',
    detect: (record: Record<string, unknown>) =>
      typeof record.kind === 'string' ? ('distinctive' as const) : ('foreign' as const),
    validate: () => [],
    createState: () => undefined,
    normalize: (record: Record<string, unknown>) =>
      record.kind === 'say'
        ? [{ type: 'user-message' as const, text: String(record.words) }]
        : [{ type: 'reasoning-end' as const }],
  };
}

/** Each line of `text` written again as Python's `json.dumps` writes it: `", "` and `": "` between tokens. */
function spacedAsPython(text: string): string {
  const dumps = (value: unknown): string => {
    if (Array.isArray(value)) return `[${value.map(dumps).join(', ')}]`;
    if (typeof value === 'object' && value !== null)
      return `{${Object.entries(value)
        .map(([key, item]) => `${JSON.stringify(key)}: ${dumps(item)}`)
        .join(', ')}}`;
    return JSON.stringify(value);
  };
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? line : dumps(JSON.parse(line))))
    .join('\n');
}
