/**
 * Every event the normalizer emits is a valid canonical event by the closed schema: on every real recording, every
 * golden recording, and on records shaped like each dialect's but with arbitrary values.
 */
import { readFileSync } from 'node:fs';
import { type CanonicalEvent, validateCanonicalEvent } from '@cursor-stream/core';
import { REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { dialectRecordings, normalizeText } from './support.ts';

function invalidEvents(events: readonly CanonicalEvent[]) {
  return events.flatMap((event) => {
    const issues = validateCanonicalEvent(event);
    return issues.length === 0 ? [] : [{ event, issues }];
  });
}

const RECORDINGS = [
  ...REAL_CORPUS.ndjsonFiles(),
  ...REAL_CORPUS.ndjsonFiles('fragments'),
  ...dialectRecordings(),
];

describe('every emitted event matches the canonical schema', () => {
  test.each(RECORDINGS.map((file) => [file.split('/').slice(-2).join('/'), file]))('%s', (_name, file) => {
    expect(invalidEvents(normalizeText(readFileSync(file)))).toEqual([]);
  });

  const value = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.object({ maxDepth: 1 }),
  );
  // Counts as logs report them: negative, fractional and past 2^53 ones are kept as they are, for the tools to name.
  const count = fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constant(2 ** 60),
  );
  const usage = fc.record(
    {
      inputTokens: count,
      outputTokens: count,
      input_tokens: count,
      output_tokens: count,
      cacheReadTokens: count,
      cacheWriteTokens: count,
      cache_read_input_tokens: count,
    },
    { requiredKeys: [] },
  );
  const type = fc.constantFrom(
    'system',
    'user',
    'thinking',
    'assistant',
    'tool_call',
    'result',
    'tool-call-started',
    'tool-call-completed',
    'system:init',
    'raw',
    'error',
    'connection',
  );
  const subtype = fc.constantFrom(
    'init',
    'delta',
    'completed',
    'started',
    'success',
    'error',
    'reconnecting',
  );
  const record = fc.record(
    {
      type,
      subtype,
      session_id: value,
      call_id: value,
      tool_call_id: value,
      tool_name: value,
      text: value,
      message: value,
      tool_call: value,
      payload: value,
      result: value,
      is_error: value,
      duration_ms: value,
      usage: fc.oneof(value, usage),
      raw_type: value,
      data: value,
    },
    { requiredKeys: ['type'] },
  );

  test.prop([fc.array(record, { maxLength: 12 })])(
    'records of every dialect with arbitrary field values give only valid events',
    (records) => {
      expect(invalidEvents(normalizeText(ndjson(records)))).toEqual([]);
    },
  );
});
