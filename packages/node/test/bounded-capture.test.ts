import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { createBoundedCapture } from '../src/agent/bounded-capture.ts';

const encode = (text: string) => new TextEncoder().encode(text);

describe('createBoundedCapture', () => {
  test.prop([
    fc.array(fc.string({ unit: 'binary-ascii' }), { maxLength: 20 }),
    fc.integer({ min: 2, max: 64 }),
  ])('keeps everything up to the limit, and beyond it the first and the last bytes', (chunks, limit) => {
    const capture = createBoundedCapture(limit);
    for (const chunk of chunks) capture.write(encode(chunk));
    const whole = chunks.join('');
    const { text, totalBytes, truncated } = capture.read();

    expect(totalBytes).toBe(whole.length);
    expect(truncated).toBe(whole.length > limit);
    if (!truncated) {
      expect(text).toBe(whole);
      return;
    }
    const head = whole.slice(0, Math.ceil(limit / 2));
    const tail = whole.slice(whole.length - (limit - head.length));
    expect(text).toBe(`${head}\n[… ${whole.length - head.length - tail.length} bytes omitted …]\n${tail}`);
  });

  test('a character cut between two chunks decodes whole', () => {
    const capture = createBoundedCapture(64);
    const bytes = encode('摘要');
    capture.write(bytes.subarray(0, 2));
    capture.write(bytes.subarray(2));
    expect(capture.read().text).toBe('摘要');
  });
});
