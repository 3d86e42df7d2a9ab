/**
 * What the normalizer and the session reducer keep of a large record once it is read: bounded pieces of its text,
 * never the record itself. A JavaScript engine may cut a string without copying it (the cut then holds the whole
 * string), and a context reused between records may hold the last one's line; either would keep a record's size
 * for as long as the stream lasts.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createNormalizer, createSessionReducer } from '@cursor-stream/core/normalize';
import { describe, expect, test } from 'vitest';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Bytes the process holds in its heap and in array buffers, after a full collection. */
function heldBytes(): number {
  collect();
  collect();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

const SESSION = { session_id: 's-held' };

function line(record: object): Uint8Array {
  return Buffer.from(`${JSON.stringify(record)}\n`);
}

/**
 * Feeds a record whose text is about `textBytes` long, made afresh as one read from a log would be; returns the text's
 * length. The text lives only in here, so that nothing but what read it can hold it afterwards.
 */
function feedText(feed: (bytes: Uint8Array) => void, index: number, textBytes: number): number {
  const text = `${index} ${'held? '.repeat(textBytes / 6)}`;
  feed(
    line({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text }] },
      ...SESSION,
    }),
  );
  return text.length;
}

describe('a large record, once read', () => {
  test('is not held by the normalizer or the session reducer, only bounded pieces of its text', () => {
    const normalizer = createNormalizer();
    const reducer = createSessionReducer();
    const feed = (bytes: Uint8Array) => {
      for (const event of normalizer.feed(bytes)) reducer.push(event);
    };
    feed(line({ type: 'system', subtype: 'init', model: 'Auto', ...SESSION }));
    const before = heldBytes();
    const textBytes = 8 * 1024 * 1024;
    let textLength = 0;
    for (let index = 0; index < 3; index++) textLength += feedText(feed, index, textBytes);
    const session = reducer.sessions().at(-1);
    expect(session?.textLength).toBe(textLength);
    // Three records of 8 MiB went through; what stays is a few hundred kilobytes of heads and tails.
    expect(heldBytes() - before).toBeLessThan(textBytes / 2);
  });
});
