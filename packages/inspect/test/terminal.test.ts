import { createPalette, displayWidth, formatTable, shouldUseColor } from '@cursor-stream/inspect/terminal';
import { describe, expect, test } from 'vitest';

describe('shouldUseColor', () => {
  test('a terminal gets color', () => {
    expect(shouldUseColor({ isTTY: true, env: {} })).toBe(true);
  });

  test('a pipe gets plain text', () => {
    expect(shouldUseColor({ isTTY: false, env: {} })).toBe(false);
  });

  test('NO_COLOR turns color off on a terminal', () => {
    expect(shouldUseColor({ isTTY: true, env: { NO_COLOR: '1' } })).toBe(false);
  });

  test('an empty NO_COLOR does not count', () => {
    expect(shouldUseColor({ isTTY: true, env: { NO_COLOR: '' } })).toBe(true);
  });

  test('FORCE_COLOR turns color on for a pipe, even with NO_COLOR set', () => {
    expect(shouldUseColor({ isTTY: false, env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).toBe(true);
  });

  test('FORCE_COLOR=0 turns color off on a terminal', () => {
    expect(shouldUseColor({ isTTY: true, env: { FORCE_COLOR: '0' } })).toBe(false);
  });

  test('a dumb terminal gets plain text', () => {
    expect(shouldUseColor({ isTTY: true, env: { TERM: 'dumb' } })).toBe(false);
  });
});

describe('createPalette', () => {
  test('an enabled palette wraps text in SGR codes that reset only what they set', () => {
    expect(createPalette(true).red('x')).toBe('\u001b[31mx\u001b[39m');
  });

  test('a disabled palette leaves text alone', () => {
    const palette = createPalette(false);
    expect([palette.red('x'), palette.bold('y'), palette.dim('z')]).toEqual(['x', 'y', 'z']);
  });
});

describe('formatTable', () => {
  test('aligns columns by display width, so CJK text does not skew them', () => {
    expect(
      formatTable([
        [{ text: '閱讀' }, { text: 'x' }],
        [{ text: 'ab' }, { text: 'y' }],
      ]),
    ).toEqual(['閱讀  x', 'ab    y']);
    expect(displayWidth('閱讀a')).toBe(5);
  });
});
