import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { cookieValues, decodePercent, parseRequestTarget } from '../src/request-parts.ts';

/** Text made of what request targets and cookies are made of, escapes and brackets most of all. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '%',
        '%Z',
        '%E0',
        '%A4',
        '%A',
        '%2F',
        '[',
        ']',
        '/',
        '//',
        '?',
        '=',
        ';',
        '#',
        ':',
        'http://',
      ),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

describe('request parts', () => {
  propertyTest.prop([fc.oneof(hostileText, fc.string({ unit: 'binary' }))])(
    'are parsed into a result for any text, never an exception',
    (text) => {
      const target = parseRequestTarget(text);
      const decoded = decodePercent(text);
      const cookies = cookieValues(`a=1; cursor_stream_token=${text}`, 'cursor_stream_token');
      expect(typeof target.ok).toBe('boolean');
      expect(typeof decoded.ok).toBe('boolean');
      expect(cookies.length).toBeLessThanOrEqual(1);
      // A path target keeps its path as sent: no `//` or `[` is ever read as a host.
      if (text.startsWith('/') && target.ok) expect(target.value.path).toBe(text.split('?')[0]);
    },
  );

  propertyTest.prop([fc.string({ unit: 'grapheme' })])('decode what encodeURIComponent encodes', (text) => {
    expect(decodePercent(encodeURIComponent(text))).toEqual({ ok: true, value: text });
    expect(cookieValues(`x=${encodeURIComponent(text)}`, 'x')).toEqual([text]);
  });

  test.each(['//[', '//[x', 'http://[/', '*', '', 'a', 'ftp://x/y'])('the target %j', (text) => {
    const result = parseRequestTarget(text);
    if (text.startsWith('/')) expect(result).toMatchObject({ ok: true, value: { path: text } });
    else expect(result).toMatchObject({ ok: false, error: { code: 'bad-request-target' } });
  });

  test.each([
    ['//[', 'bad-request-target'],
    ['/%zz', 'bad-escape'],
    ['/api/runs?x=%zz', 'bad-escape'],
    ['/api/runs/%E0%A4%A/events', 'bad-escape'],
  ])('the target %j reads as a path with its problem, %s, to answer once authorized', (text, code) => {
    expect(parseRequestTarget(text)).toMatchObject({
      ok: true,
      value: { path: text.split('?')[0], problem: { code } },
    });
  });

  test('a well-formed target has no problem', () => {
    expect(parseRequestTarget('/api/runs/r-1/events?after=12%3A1')).toMatchObject({
      ok: true,
      value: { problem: null },
    });
  });

  test('a target gives its path as sent and its query', () => {
    const result = parseRequestTarget('//evil.example/api/runs?after=12&format=ai-sdk');
    expect(result.ok && result.value.path).toBe('//evil.example/api/runs');
    expect(result.ok && result.value.query.get('after')).toBe('12');
    const absolute = parseRequestTarget('http://127.0.0.1:8787/api/runs?after=3');
    expect(absolute.ok && [absolute.value.path, absolute.value.query.get('after')]).toEqual([
      '/api/runs',
      '3',
    ]);
  });

  test.each(['%ZZ', '%E0%A4%A', '%', 'a%2'])(
    'the malformed escape %j is a problem, and no cookie value',
    (text) => {
      expect(decodePercent(text)).toMatchObject({ ok: false, error: { code: 'bad-escape' } });
      expect(
        cookieValues(`cursor_stream_token=${text}; cursor_stream_token=ok`, 'cursor_stream_token'),
      ).toEqual(['ok']);
    },
  );

  test('cookies are found by their exact name, every one of that name in order, and none is an empty list', () => {
    expect(
      cookieValues(
        'xcursor_stream_token=1; cursor_stream_token=a%20b; cursor_stream_token=c',
        'cursor_stream_token',
      ),
    ).toEqual(['a b', 'c']);
    expect(cookieValues(undefined, 'cursor_stream_token')).toEqual([]);
    expect(cookieValues('other=%ZZ', 'cursor_stream_token')).toEqual([]);
  });
});
