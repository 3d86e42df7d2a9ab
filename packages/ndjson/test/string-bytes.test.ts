/**
 * The word-at-a-time string scan: for any bytes at any alignment, the same answer as a byte loop that follows JSON's
 * grammar for strings, and for any string `JSON.stringify` writes (or writes with other escapes), its own end.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { jsonStringEnd, scannedBytes } from '../src/string-bytes.ts';

/** The grammar, a byte at a time: what the scan must agree with. */
function byteLoopEnd(bytes: Uint8Array, open: number): { close: number; canonical: boolean } | undefined {
  let canonical = true;
  for (let at = open + 1; at < bytes.length; ) {
    const byte = bytes[at] as number;
    if (byte === 0x22) return { close: at, canonical };
    if (byte < 0x20) return undefined;
    if (byte !== 0x5c) {
      at += 1;
      continue;
    }
    const escaped = String.fromCharCode(bytes[at + 1] ?? 0);
    if ('"\\/bfnrt'.includes(escaped) && escaped !== '') {
      if (escaped === '/') canonical = false;
      at += 2;
    } else if (
      escaped === 'u' &&
      /^[0-9a-fA-F]{4}$/.test(String.fromCharCode(...bytes.subarray(at + 2, at + 6)))
    ) {
      canonical = false;
      at += 6;
    } else return undefined;
  }
  return undefined;
}

/** Bytes weighted towards what the scan decides on: quotes, backslashes, escape letters, controls, high bytes. */
const scanByte = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 2, arbitrary: fc.constantFrom(0x22, 0x5c, 0x2f, 0x75, 0x6e, 0x30, 0x61, 0x46) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x1f }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
);

/** Characters a JSON string must or may escape, and lone surrogates, which `JSON.stringify` writes as `\u` escapes. */
const textSpecial = fc.constantFrom(
  '"',
  '\\',
  '/',
  '\n',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  '\ud800',
  '\udfff',
  'é',
  '👍',
);

/** `text` with every UTF-16 unit written as a `\u` escape, and `/` as `\/`: valid JSON for the same string. */
function everyUnitEscaped(text: string): string {
  let written = '"';
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    written += unit === 0x2f ? '\\/' : `\\u${unit.toString(16).padStart(4, '0')}`;
  }
  return `${written}"`;
}

/** `content` placed `shift` bytes into a larger buffer, after an opening quote, so every alignment is tried. */
function placed(content: readonly number[], shift: number): Uint8Array {
  const buffer = new Uint8Array(shift + 1 + content.length + 3).fill(0x22);
  buffer.set(content, shift + 1);
  return buffer.subarray(shift, shift + 1 + content.length);
}

describe('jsonStringEnd', () => {
  test.prop([fc.array(scanByte, { maxLength: 80 }), fc.integer({ min: 0, max: 7 })])(
    'any bytes at any alignment: the byte loop answer',
    (content, shift) => {
      const bytes = placed(content, shift);
      expect(jsonStringEnd(scannedBytes(bytes), 0)).toEqual(byteLoopEnd(bytes, 0));
    },
  );

  test.prop([
    fc.string({
      unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), textSpecial),
      maxLength: 60,
    }),
    fc.boolean(),
    fc.integer({ min: 0, max: 7 }),
  ])('a string as JSON writes it ends at its own quote', (text, escapeEvery, shift) => {
    const written = escapeEvery ? everyUnitEscaped(text) : JSON.stringify(text);
    expect(JSON.parse(written)).toBe(text);
    const writtenBytes = new TextEncoder().encode(written);
    const bytes = placed([...writtenBytes.subarray(1), ...new TextEncoder().encode(', "next"')], shift);
    // Every backslash of the written text starts an escape: a `\u` or `\/` one makes it not canonical.
    const escapes = [...written.matchAll(/\\(.)/g)].map((match) => match[1]);
    expect(jsonStringEnd(scannedBytes(bytes), 0)).toEqual({
      close: writtenBytes.length - 1,
      canonical: !escapes.includes('u') && !escapes.includes('/'),
    });
  });

  test.prop([fc.array(scanByte, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 7 })])(
    'bytes that end inside the string give no end',
    (content, shift) => {
      const bytes = placed(content, shift);
      const end = byteLoopEnd(bytes, 0);
      const cut = bytes.subarray(0, end === undefined ? bytes.length : end.close);
      expect(jsonStringEnd(scannedBytes(cut), 0)).toBeUndefined();
    },
  );
});
