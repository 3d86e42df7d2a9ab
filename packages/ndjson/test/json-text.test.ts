import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { AFTER_BACKSLASH, INSIDE, OUTSIDE, type StringState, scanStringState } from '../src/json-text.ts';

/** The obvious character-by-character state machine, as the reference for the quote-jumping scan. */
function referenceScan(text: string, start: StringState): StringState {
  let state = start;
  for (const char of text) {
    if (state === AFTER_BACKSLASH) state = INSIDE;
    else if (state === INSIDE) state = char === '"' ? OUTSIDE : char === '\\' ? AFTER_BACKSLASH : INSIDE;
    else if (char === '"') state = INSIDE;
  }
  return state;
}

const jsonish = fc
  .array(fc.constantFrom('"', '\\', 'a', '{', '}', ':', ',', '\n', 'é'), { maxLength: 40 })
  .map((chars) => chars.join(''));

test.prop([jsonish, fc.constantFrom<StringState>(OUTSIDE, INSIDE, AFTER_BACKSLASH)])(
  'the quote-jumping scan ends in the same string state as a character-by-character scan',
  (text, start) => {
    expect(scanStringState(text, start)).toBe(referenceScan(text, start));
  },
);
