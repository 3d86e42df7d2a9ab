/**
 * Whether any string was ever left undecoded: false until a long line is read lazily, so that writers skip looking
 * for such strings in every value of a log that has none; true from the first one on.
 */
import { LAZY_LINE_BYTES, lazyStringsMade } from '@cursor-stream/ndjson';
import { cutAt } from '@cursor-stream/test-kit/chunking';
import { expect, it } from 'vitest';
import { encodeUtf8, tokenize } from './support.ts';

it('is false until a long string is left undecoded, then true', () => {
  const short = encodeUtf8(`${JSON.stringify({ type: 'assistant', text: 'hi' })}\n`);
  tokenize(cutAt(short, [5]), { lazyStrings: true });
  expect(lazyStringsMade()).toBe(false);
  const long = encodeUtf8(`${JSON.stringify({ type: 'tool_call', content: 'x'.repeat(LAZY_LINE_BYTES) })}\n`);
  tokenize([long], { lazyStrings: true });
  // Whole in one chunk, the line is parsed as any line: nothing is left undecoded.
  expect(lazyStringsMade()).toBe(false);
  tokenize(cutAt(long, [10]), { lazyStrings: true });
  expect(lazyStringsMade()).toBe(true);
});
