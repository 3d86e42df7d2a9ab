/**
 * The hand-over between a producer that pushes (stdout callbacks) and a consumer that pulls (`for await`), with
 * backpressure: past a high-water mark the producer is asked to pause, and to resume once the consumer catches up.
 */

/** A queue for one consumer, which may call `next()` again before the last call resolved; see {@link createEventQueue}. */
export interface EventQueue<T> {
  push(item: T): void;
  /** No more items; waiting `next()` calls resolve `done`. */
  close(): void;
  /** The next item, in order: concurrent calls get consecutive items. */
  next(): Promise<IteratorResult<T, undefined>>;
  /**
   * Stops pausing the producer (and resumes it if paused): for a caller that waits for the end without reading, so
   * that a full queue nobody drains cannot stall the producer.
   */
  unbound(): void;
  /** Items pushed and not yet taken. */
  readonly size: number;
}

/** Callbacks of {@link createEventQueue} for backpressure. */
export interface QueueFlow {
  /** Items held before {@link QueueFlow.pause} is called. */
  highWaterMark: number;
  pause(): void;
  resume(): void;
}

/** Creates a queue; `flow` pauses the producer past `highWaterMark` items and resumes it when the queue is empty. */
export function createEventQueue<T>(flow: QueueFlow): EventQueue<T> {
  let items: T[] = [];
  // The front of `items` is read by index, so taking an item never shifts the array.
  let head = 0;
  let closed = false;
  let paused = false;
  let bounded = true;
  // Callers of next() waiting for an item, oldest first.
  const waiting: ((result: IteratorResult<T, undefined>) => void)[] = [];

  function take(): T | undefined {
    const item = items[head];
    head++;
    if (head === items.length) {
      items = [];
      head = 0;
    }
    return item;
  }

  return {
    push(item) {
      if (closed) return;
      const resolve = waiting.shift();
      if (resolve !== undefined) {
        resolve({ value: item, done: false });
        return;
      }
      items.push(item);
      if (bounded && !paused && items.length - head >= flow.highWaterMark) {
        paused = true;
        flow.pause();
      }
    },
    close() {
      closed = true;
      // Items are handed to waiters as they come, so anyone still waiting has nothing left to get.
      for (const resolve of waiting.splice(0)) resolve({ value: undefined, done: true });
    },
    next() {
      if (items.length > head) return Promise.resolve({ value: take() as T, done: false });
      if (paused) {
        paused = false;
        flow.resume();
      }
      if (closed) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        waiting.push(resolve);
      });
    },
    unbound() {
      bounded = false;
      if (paused) {
        paused = false;
        flow.resume();
      }
    },
    get size() {
      return items.length - head;
    },
  };
}
