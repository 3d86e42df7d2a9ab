import { describe, expect, test } from 'vitest';
import { createEventQueue } from '../src/agent/event-queue.ts';

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

  test('concurrent next() calls get consecutive items, and all end on close', async () => {
    const queue = createEventQueue<string>(recordedFlow(10).flow);
    const pending = [queue.next(), queue.next(), queue.next()];
    queue.push('a');
    queue.push('b');
    queue.close();
    expect(await Promise.all(pending)).toEqual([
      { value: 'a', done: false },
      { value: 'b', done: false },
      { value: undefined, done: true },
    ]);
  });

  test('unbound resumes a paused producer and never pauses it again', () => {
    const { calls, flow } = recordedFlow(2);
    const queue = createEventQueue<number>(flow);
    for (const item of [1, 2, 3]) queue.push(item);
    queue.unbound();
    for (const item of [4, 5, 6, 7]) queue.push(item);
    expect(calls).toEqual(['pause', 'resume']);
    expect(queue.size).toBe(7);
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
