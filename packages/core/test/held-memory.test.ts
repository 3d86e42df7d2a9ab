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

/** A `tool_call/started` record whose call never completes. */
function startLine(id: string): Uint8Array {
  return line({
    type: 'tool_call',
    subtype: 'started',
    call_id: id,
    tool_call: { readToolCall: { args: { path: 'README.md' } } },
    ...SESSION,
  });
}

describe('a session of tool calls started and never completed', () => {
  test('keeps the latest 1,024 open calls, in start order, not one per start', () => {
    const normalizer = createNormalizer();
    const events = [...normalizer.feed(line({ type: 'system', subtype: 'init', model: 'Auto', ...SESSION }))];
    const count = 3000;
    for (let index = 0; index < count; index++) events.push(...normalizer.feed(startLine(`call-${index}`)));
    events.push(...normalizer.end());
    const finish = events.find((event) => event.type === 'finish');
    expect(finish?.type === 'finish' && finish.pendingToolCallIds).toEqual(
      Array.from({ length: 1024 }, (_, index) => `call-${count - 1024 + index}`),
    );
    expect(events.filter((event) => event.type === 'tool-call')).toHaveLength(count);
  });

  test('holds memory bounded by the open calls it keeps, whatever the number or length of ids', () => {
    const normalizer = createNormalizer();
    normalizer.feed(line({ type: 'system', subtype: 'init', model: 'Auto', ...SESSION }));
    // Ids of 3,000 characters are kept (1,024 of them); ids of 64 KiB, as long as a record, are not.
    const id = (index: number, length: number) => `${index}-`.padEnd(length, 'x');
    for (let index = 0; index < 1024; index++) normalizer.feed(startLine(id(index, 3000)));
    const before = heldBytes();
    for (let index = 1024; index < 5120; index++) normalizer.feed(startLine(id(index, 3000)));
    for (let index = 0; index < 200; index++) normalizer.feed(startLine(id(index, 64 * 1024)));
    // Unbounded, the dialect and the normalizer would each keep 4,096 more ids of 3 KB and 200 of 64 KiB: 50 MB.
    expect(heldBytes() - before).toBeLessThan(4 * 1024 * 1024);
    const finish = normalizer.end().find((event) => event.type === 'finish');
    expect(finish?.type === 'finish' && finish.pendingToolCallIds.length).toBe(1024);
  });
});
