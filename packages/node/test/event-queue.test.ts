import { describe, expect, test } from 'vitest';
import { createEventQueue } from '../src/event-queue.ts';

function recordedFlow(highWaterMark: number) {
  const calls: string[] = [];
  return {
    calls,
    flow: { highWaterMark, pause: () => calls.push('pause'), resume: () => calls.push('resume') },
  };
}

describe('createEventQueue', () => {
  test('asks the producer to pause at the high-water mark and to resume once the queue is drained', async () => {
    const { calls, flow } = recordedFlow(3);
    const queue = createEventQueue<number>(flow);
    for (const item of [1, 2, 3, 4]) queue.push(item);
    expect(calls).toEqual(['pause']);

    const taken = [];
    for (let index = 0; index < 4; index++) taken.push((await queue.next()).value);
    expect(calls).toEqual(['pause']);
    queue.close();
    expect(await queue.next()).toEqual({ value: undefined, done: true });
    expect(taken).toEqual([1, 2, 3, 4]);
    expect(calls).toEqual(['pause', 'resume']);
  });

  test('hands an item straight to a waiting reader, and ends a waiting reader on close', async () => {
    const queue = createEventQueue<string>(recordedFlow(10).flow);
    const waiting = queue.next();
    queue.push('a');
    expect(await waiting).toEqual({ value: 'a', done: false });
    const last = queue.next();
    queue.close();
    expect(await last).toEqual({ value: undefined, done: true });
  });

  test('gives the items pushed before close, then done, and ignores pushes after close', async () => {
    const queue = createEventQueue<string>(recordedFlow(10).flow);
    queue.push('a');
    queue.close();
    queue.push('b');
    expect(await queue.next()).toEqual({ value: 'a', done: false });
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });
});
