/**
 * A consumer's reader of text lines (`readTextLine`) turns exactly the lines it takes from problems into records, with
 * the line as the record's text, at the same places, however the input is chunked; everything else is unchanged.
 */

import { cutAt } from '@cursor-stream/test-kit/chunking';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { tokenize } from './support.ts';

const LINE = fc.constantFrom(
  '{"a":1}',
  '> {"b":2}',
  '> {"b":2}\r',
  '> not json',
  '12.5 > {"c":3}',
  '12.5 oops',
  'plain output',
  '{"a":',
  '',
);

/** Reads `> <json object>` after an optional number, as a log with a direction prefix writes it. */
function prefixReader(seen: string[]) {
  return (text: string): unknown => {
    seen.push(text);
    const match = /^(?:[\d.]+ )?> (\{.*\})$/.exec(text);
    if (match?.[1] === undefined) return undefined;
    try {
      return JSON.parse(match[1]);
    } catch {
      return undefined;
    }
  };
}

describe('readTextLine', () => {
  test.prop([fc.array(LINE, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 8 })])(
    'makes records of the lines it reads and leaves every other line as JSON.parse alone has it, in any chunking',
    (lines, cuts) => {
      const text = lines.map((line) => `${line}\n`).join('');
      const plain = tokenize([text]);
      const seen: string[] = [];
      const read = tokenize(cutAt(text, cuts), { readTextLine: prefixReader(seen), objectsOnly: true });
      const plainObjects = tokenize([text], { objectsOnly: true });
      expect(read.skips).toEqual(plain.skips);
      expect(read.items.length).toBe(plainObjects.items.length);
      read.items.forEach((item, index) => {
        const before = plainObjects.items[index];
        expect(item.line).toBe(before?.line);
        expect(item.offset).toBe(before?.offset);
        if ('value' in item && before !== undefined && 'code' in before) {
          // A line the reader took: it was a problem before, and its text is the whole line without the CR.
          expect(item.text).toMatch(/^(?:[\d.]+ )?> \{/);
          expect(item.text.endsWith('\r')).toBe(false);
        } else expect(item).toEqual(before);
      });
      // It is asked only about lines that are not JSON of their own.
      for (const line of seen) expect(line.startsWith('{')).toBe(false);
    },
  );
});
