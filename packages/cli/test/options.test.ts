import { BUILT_IN_DIALECTS } from '@cursor-stream/core';
import { createNdjsonTokenizer, MAX_RECORD_BYTES_CAP } from '@cursor-stream/ndjson';
import { describe, expect, test } from 'vitest';
import {
  capJobs,
  DIALECT_CHOICES,
  isOptionValueError,
  MAX_RECORD_BYTES_LIMIT,
  parseByteSize,
  parseMaxRecordBytes,
  parsePositiveInteger,
} from '../src/io/options.ts';

describe('--dialect', () => {
  test('offers auto and exactly the core built-in dialects, in their order', () => {
    expect(DIALECT_CHOICES).toEqual(['auto', ...BUILT_IN_DIALECTS.map((dialect) => dialect.name)]);
  });
});

describe('parsePositiveInteger', () => {
  test('reads a positive integer', () => {
    expect(parsePositiveInteger(' 4 ')).toBe(4);
  });

  test.each(['0', '-1', '1.5', 'four', '', '1e3', '99999999999999999999'])('refuses %j', (text) => {
    const value = parsePositiveInteger(text);
    expect(isOptionValueError(value)).toBe(true);
  });
});

describe('parseByteSize', () => {
  test.each([
    ['1048576', 1_048_576],
    ['512k', 512 * 1024],
    ['64m', 64 * 1024 ** 2],
    ['64MiB', 64 * 1024 ** 2],
    ['1G', 1024 ** 3],
  ])('reads %s as %d bytes', (text, bytes) => {
    expect(parseByteSize(text)).toBe(bytes);
  });

  test.each(['0', '-5', '1.5m', 'lots', '12x'])('refuses %j', (text) => {
    expect(isOptionValueError(parseByteSize(text))).toBe(true);
  });
});

describe('parseMaxRecordBytes', () => {
  test('accepts sizes up to the longest string the runtime holds, and refuses larger ones', () => {
    expect(parseMaxRecordBytes('64m')).toBe(64 * 1024 ** 2);
    expect(parseMaxRecordBytes(String(MAX_RECORD_BYTES_LIMIT))).toBe(MAX_RECORD_BYTES_LIMIT);
    expect(isOptionValueError(parseMaxRecordBytes(String(MAX_RECORD_BYTES_LIMIT + 1)))).toBe(true);
    expect(isOptionValueError(parseMaxRecordBytes('1g'))).toBe(true);
    expect(isOptionValueError(parseMaxRecordBytes('300m'))).toBe(true);
    expect(isOptionValueError(parseMaxRecordBytes('lots'))).toBe(true);
  });

  test("the limit is the tokenizer's own, so the tokenizer never refuses what the command line accepted", () => {
    expect(MAX_RECORD_BYTES_LIMIT).toBe(MAX_RECORD_BYTES_CAP);
    expect(() => createNdjsonTokenizer({ maxRecordBytes: MAX_RECORD_BYTES_LIMIT })).not.toThrow();
  });
});

describe('capJobs', () => {
  test('keeps a request within the CPU count, and lowers a larger one with a note', () => {
    expect(capJobs(2, 4)).toEqual({ jobs: 2 });
    expect(capJobs(4, 4)).toEqual({ jobs: 4 });
    const lowered = capJobs(1000, 4);
    expect(lowered.jobs).toBe(4);
    expect(lowered.note).toMatch(/^--jobs 1000 lowered to 4/);
    expect(capJobs(3, 0).jobs).toBe(1);
  });
});
