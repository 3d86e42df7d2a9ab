import { createPalette, displayWidth, formatTable, shouldUseColor } from '@cursor-stream/inspect/terminal';
import fc from 'fast-check';
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

describe('displayWidth', () => {
  // Each character judged on its own: the definition the quick count of leading ASCII must agree with.
  const WIDE =
    /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
  const widthByCharacter = (text: string): number =>
    [...text].reduce((width, char) => width + (/\p{M}/u.test(char) ? 0 : WIDE.test(char) ? 2 : 1), 0);

  test('no character below U+0300 is a mark or wide', () => {
    for (let code = 0; code < 0x300; code++) {
      expect(widthByCharacter(String.fromCharCode(code))).toBe(1);
    }
  });

  test('counts every string as its characters one by one do', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.constantFrom('é', 'e\u0301', '閱', '😀', '\ud83d', '\ude00', 'ab'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
        const text = pieces.join('');
        expect(displayWidth(text)).toBe(widthByCharacter(text));
      }),
      { numRuns: 1000 },
    );
  });
});
