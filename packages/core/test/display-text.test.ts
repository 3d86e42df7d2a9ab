import {
  codePointCount,
  displayPath,
  displayUrl,
  escapeControls,
  escapeControlsKeepingLines,
  foldToOneLine,
  formatBytes,
  formatCount,
  formatDuration,
  plural,
  truncate,
} from '@cursor-stream/core/text';
import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';

describe('escapeControls', () => {
  test('a call id holding a line feed prints on one line with the feed escaped', () => {
    expect(escapeControls('call_abc\nfc_123')).toBe('call_abc\\nfc_123');
  });

  test('terminal escape sequences cannot reach the terminal', () => {
    expect(escapeControls('\u001b[31mred\u0007')).toBe('\\u001b[31mred\\u0007');
  });

  test('line and paragraph separators are escaped too', () => {
    expect(escapeControls('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c');
  });

  test('multi-line text keeps its line feeds and tabs but loses carriage returns before them', () => {
    expect(escapeControlsKeepingLines('one\r\ntwo\tthree\u001b')).toBe('one\ntwo\tthree\\u001b');
  });
});

describe('displayPath', () => {
  test('standard input is named as such, and a path keeps no control or bidi character', () => {
    expect(displayPath('-')).toBe('<stdin>');
    expect(displayPath('logs/a\u202eb\n.ndjson')).toBe('logs/a\\u202eb\\n.ndjson');
    expect(displayPath('./-')).toBe('./-');
  });
});

describe('displayUrl', () => {
  test("masks every query parameter's value and keeps the rest; text that is no URL stays as it is", () => {
    expect(displayUrl('https://collector.example/v1/traces?api-key=s3cret&tenant=a&api-key=2#x')).toBe(
      'https://collector.example/v1/traces?api-key=***&tenant=***#x',
    );
    expect(displayUrl('http://127.0.0.1:4318/v1/traces')).toBe('http://127.0.0.1:4318/v1/traces');
    expect(displayUrl('not a url ?key=1')).toBe('not a url ?key=1');
  });

  test('masks credentials in the authority, a token given as the user name too', () => {
    expect(displayUrl('http://glc_SECRETTOKEN@127.0.0.1:4318/v1/traces')).toBe(
      'http://***@127.0.0.1:4318/v1/traces',
    );
    expect(displayUrl('https://me:s3cret@h/x?k=1')).toBe('https://***:***@h/x?k=***');
  });
});

describe('foldToOneLine', () => {
  test('a paragraph with line breaks becomes one line with single spaces', () => {
    expect(foldToOneLine('  **Planning**\n\nI will\trun it  ')).toBe('**Planning** I will run it');
  });
});

describe('truncate', () => {
  test('text within the limit is unchanged', () => {
    expect(truncate('short', 5)).toBe('short');
  });

  test('longer text is cut to the limit with an ellipsis', () => {
    expect(truncate('abcdefgh', 5)).toBe('abcd…');
  });

  test('an emoji is never cut in half', () => {
    expect(truncate('😀😀😀😀', 3)).toBe('😀😀…');
  });
});

describe('formatDuration', () => {
  test.each([
    [850, '850 ms'],
    [5234, '5.2 s'],
    [184_000, '3 min 04 s'],
    [3_720_000, '1 h 02 min'],
    [18_446_744_073_709, '5124095 h 35 min'],
    [1e300, '1e+300 ms, past any time'],
  ])('%d ms reads as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('formatBytes', () => {
  test.each([
    [512, '512 B'],
    [2341, '2.3 KB'],
    [200_121_128, '200.1 MB'],
  ])('%d bytes reads as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('plural', () => {
  test('one takes the singular and other counts the plural, with thousands separated', () => {
    expect([plural(1, 'line'), plural(0, 'line'), plural(12_345, 'event')]).toEqual([
      '1 line',
      '0 lines',
      '12,345 events',
    ]);
  });
});

describe('formatCount', () => {
  propTest.prop([fc.integer({ min: -1e15, max: 1e15 })])(
    'groups thousands exactly as the en-US locale does',
    (n) => {
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    },
  );
});

describe('truncate and codePointCount agree with splitting into code points', () => {
  const text = fc.string({ unit: 'grapheme', maxLength: 30 });
  propTest.prop([text, fc.integer({ min: 1, max: 35 })])('truncate', (value, max) => {
    const points = Array.from(value);
    const expected = points.length <= max ? value : `${points.slice(0, max - 1).join('')}…`;
    expect(truncate(value, max)).toBe(expected);
  });
  propTest.prop([text])('codePointCount', (value) => {
    expect(codePointCount(value)).toBe(Array.from(value).length);
  });
});
