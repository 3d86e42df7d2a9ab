import { BUILT_IN_DIALECTS } from '@cursor-stream/core';
import { describe, expect, test } from 'vitest';
import { DIALECT_CHOICES, isOptionValueError, parseByteSize, parsePositiveInteger } from '../src/options.ts';

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
