/**
 * The fuzz suite: hostile documents through the tokenizer and the normalizer under random chunkings. Runs with the
 * fixed seed of every property test; `FC_NUM_RUNS` (and `FC_SEED=random`) make it a long run.
 *
 * Documents mix records of every dialect (the project's own recordings), nesting up to 10^5 deep, lines cut inside
 * strings followed by every kind of record, records with raw line breaks, control and bidirectional-override
 * characters, noise, blank lines, CRLF and a byte order mark. Whatever the input: nothing throws, every event can be
 * written, the chunking changes nothing, and records, problems and skips cover every byte exactly once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CanonicalEvent, createNormalizer, safeJsonStringify } from '@cursor-stream/core';
import { createNdjsonTokenizer, type NdjsonItem, type NdjsonSkip } from '@cursor-stream/ndjson';
import { cutAt, cutBySizes } from '@cursor-stream/test-kit/chunking';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';

/**
 * Every record line of the project's recordings, of every dialect; not the benchmark's generated corpora, which a
 * benchmark run leaves in `generated/` and which are far too large to draw from.
 */
const corpusLines = readdirSync(CORPUS_DIR, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ndjson') && !file.startsWith('generated'))
  .flatMap((file) => readFileSync(join(CORPUS_DIR, file), 'utf8').split('\n'))
  .filter((line) => {
    try {
      return typeof JSON.parse(line) === 'object';
    } catch {
      // A piece of a record written over raw line breaks; the suite writes those itself.
      return false;
    }
  });

const CONTROL_AND_BIDI = [
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\u007f',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u200f',
  '\u2028',
];

/** Text with control characters, bidirectional overrides and escapes mixed in. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.constantFrom(...CONTROL_AND_BIDI, '"', '\\', '\n', '\r', '\t'),
    ),
    {
      maxLength: 8,
    },
  )
  .map((parts) => parts.join(''));

/** A record of a real shape with a field replaced by hostile text, written with its raw control characters. */
const hostileRecord = fc.tuple(fc.constantFrom(...corpusLines), hostileText).map(([line, text]) => {
  const record = JSON.parse(line) as Record<string, unknown>;
  record.text = text;
  return JSON.stringify(record).replace(
    /\\[nrt]/g,
    (sequence) => ({ '\\n': '\n', '\\r': '\r', '\\t': '\t' })[sequence] ?? sequence,
  );
});

function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

const deepRecord = fc
  .tuple(
    fc.oneof(fc.integer({ min: 400, max: 2_000 }), fc.constant(100_000)),
    fc.constantFrom('array' as const, 'object' as const),
    fc.constantFrom(
      '{"type":"tool_call","subtype":"started","call_id":"d","tool_call":{"shellToolCall":{"args":{"x":%}}}}',
      '{"type":"x","a":%}',
      '%',
    ),
  )
  .map(([depth, kind, template]) => template.replace('%', nested(depth, kind)));

const cutLine = fc.oneof(
  fc.constant('{"type":"assistant","text":"cut'),
  fc
    .tuple(fc.constantFrom(...corpusLines), fc.nat())
    .map(([line, keep]) => line.slice(0, keep % line.length)),
);

const line = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...corpusLines) },
  { weight: 3, arbitrary: hostileRecord },
  { weight: 2, arbitrary: cutLine },
  { weight: 1, arbitrary: deepRecord },
  {
    weight: 1,
    arbitrary: fc.constantFrom('{}', '[1,2]', '42', '"text"', 'null', '', ' \t', 'RetriableError: boom'),
  },
  { weight: 1, arbitrary: hostileText },
);

const hostileDocument = fc
  .record({ lines: fc.array(line, { maxLength: 25 }), crlf: fc.boolean(), bom: fc.boolean() })
  .map(({ lines, crlf, bom }) =>
    new TextEncoder().encode((bom ? '\uFEFF' : '') + lines.join(crlf ? '\r\n' : '\n')),
  );

/** Past this size a document is fed in 7-byte pieces rather than byte by byte, to keep the suite within minutes. */
const BYTEWISE_LIMIT = 16 * 1024;

/** Chunkings: one chunk, random cuts, and one byte at a time. */
function chunkings(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[][] {
  return [[bytes], cutAt(bytes, cuts), cutBySizes(bytes, [bytes.length <= BYTEWISE_LIMIT ? 1 : 7])];
}

function normalizeAll(chunks: readonly Uint8Array[], maxRecordBytes?: number): CanonicalEvent[] {
  const normalizer = createNormalizer(maxRecordBytes === undefined ? {} : { maxRecordBytes });
  const events: CanonicalEvent[] = [];
  for (const chunk of chunks) events.push(...normalizer.feed(chunk));
  events.push(...normalizer.end());
  return events;
}

/** A quarter of the global run count: each run feeds a document three ways. */
const RUNS = Math.max(1, Math.floor((fc.readConfigureGlobal().numRuns ?? 200) / 4));
/** Generous, for a loaded CI machine; the suite takes well under a minute of CPU. */
const TIMEOUT_MS = 300_000;

describe('fuzz', { timeout: TIMEOUT_MS }, () => {
  test.prop([hostileDocument, fc.array(fc.nat(), { maxLength: 12 })], {
    numRuns: RUNS,
  })(
    'the normalizer never throws, writes every event, and gives the same events under any chunking',
    (bytes, cuts) => {
      const [whole, ...others] = chunkings(bytes, cuts);
      const expected = normalizeAll(whole as Uint8Array[]);
      for (const event of expected) expect(safeJsonStringify(event).ok).toBe(true);
      for (const chunks of others) expect(normalizeAll(chunks)).toEqual(expected);
    },
  );

  test.prop([hostileDocument, fc.array(fc.nat(), { maxLength: 12 }), fc.integer({ min: 1, max: 200 })], {
    numRuns: RUNS,
  })(
    'the tokenizer covers every byte exactly once and holds no more than maxRecordBytes, under any chunking',
    (bytes, cuts, maxRecordBytes) => {
      for (const chunks of chunkings(bytes, cuts)) {
        const spans: [number, number][] = [];
        const onSkip = (skip: NdjsonSkip) => spans.push([skip.offset, skip.length]);
        const tokenizer = createNdjsonTokenizer({ maxRecordBytes, onSkip });
        const take = (items: readonly NdjsonItem[]) => {
          for (const item of items) spans.push([item.offset, item.length]);
        };
        for (const chunk of chunks) {
          take(tokenizer.feed(chunk));
          expect(tokenizer.bufferedBytes).toBeLessThanOrEqual(maxRecordBytes);
        }
        take(tokenizer.end());
        spans.sort((a, b) => a[0] - b[0]);
        let covered = 0;
        for (const [offset, length] of spans) {
          expect(offset).toBe(covered);
          covered += length;
        }
        expect(covered).toBe(bytes.length);
      }
    },
  );

  // A wrapper's text of one record is read whole, without the tokenizer; with a line feed after it, by the tokenizer.
  // A text that is not JSON goes to the tokenizer either way, as it is: after it, a line feed would make a cut
  // record a broken one.
  const parses = (text: string): boolean => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  };
  const wrapperText = fc.oneof(
    { weight: 4, arbitrary: line },
    // A record written over several lines is whole JSON, but several lines to the tokenizer.
    {
      weight: 1,
      arbitrary: fc.constantFrom(...corpusLines).map((text) => JSON.stringify(JSON.parse(text), null, 1)),
    },
  );
  test.prop([fc.array(wrapperText, { minLength: 1, maxLength: 12 }), fc.boolean()], { numRuns: RUNS })(
    "a wrapper's text gives the same events read whole as read by the tokenizer",
    (texts, stored) => {
      const wrapped = (suffix: string) =>
        [
          JSON.stringify({ type: 'system', subtype: 'init', payload: {} }),
          ...texts.map((text) =>
            JSON.stringify(
              stored
                ? {
                    id: 'e',
                    chatId: 'chat',
                    type: 'assistant',
                    payload: {},
                    raw: text + (parses(text) ? suffix : ''),
                  }
                : { type: 'raw', data: text + (parses(text) ? suffix : '') },
            ),
          ),
        ].join('\n');
      // The line feed makes each outer line two bytes longer (`\n` in JSON): offsets differ, nothing else may.
      const read = (suffix: string): unknown =>
        JSON.parse(JSON.stringify(normalizeAll([new TextEncoder().encode(wrapped(suffix))])), (key, value) =>
          key === 'offset' ? 0 : value,
        );
      const whole = read('');
      expect(JSON.stringify(whole)).toContain('"type":"stream-start"');
      expect(read('\n')).toEqual(whole);
    },
  );

  test.prop([fc.integer({ min: 1_000, max: 20_000 }), fc.integer({ min: 1, max: 64 })], { numRuns: 3 })(
    'a huge session streams through with its text once and no invalid line',
    (records, chunkSize) => {
      const lines = ['{"type":"system","subtype":"init","session_id":"s","model":"m"}'];
      let text = '';
      for (let i = 0; i < records; i++) {
        const piece = `piece ${i}\u202e\n`;
        text += piece;
        lines.push(
          JSON.stringify({
            type: 'assistant',
            message: { role: 'assistant', content: [{ type: 'text', text: piece }] },
            session_id: 's',
            timestamp_ms: i,
          }),
        );
        if (i % 100 === 99)
          lines.push(
            JSON.stringify({
              type: 'tool_call',
              subtype: 'started',
              call_id: `c${i}`,
              session_id: 's',
              tool_call: { readToolCall: { args: { path: 'a' } } },
            }),
          );
      }
      lines.push(
        JSON.stringify({
          type: 'result',
          subtype: 'success',
          result: text,
          session_id: 's',
          is_error: false,
        }),
      );
      const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += chunkSize * 1024)
        chunks.push(bytes.subarray(at, at + chunkSize * 1024));
      const events = normalizeAll(chunks);
      expect(events.filter((event) => event.type === 'invalid-line')).toEqual([]);
      expect(events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('')).toBe(text);
    },
  );
});
