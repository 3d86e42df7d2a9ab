/**
 * The hand-over between a producer that pushes (stdout callbacks) and a consumer that pulls (`for await`), with
 * backpressure: past a high-water mark the producer is asked to pause, and to resume once the consumer catches up.
 */

/** A single-consumer queue; see {@link createEventQueue}. */
export interface EventQueue<T> {
  push(item: T): void;
  /** No more items; a waiting `next()` resolves `done`. */
  close(): void;
  next(): Promise<IteratorResult<T, undefined>>;
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
  let waiting: ((result: IteratorResult<T, undefined>) => void) | undefined;

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
      if (waiting !== undefined) {
        const resolve = waiting;
        waiting = undefined;
        resolve({ value: item, done: false });
        return;
      }
      items.push(item);
      if (!paused && items.length - head >= flow.highWaterMark) {
        paused = true;
        flow.pause();
      }
    },
    close() {
      closed = true;
      if (waiting !== undefined && items.length === head) {
        const resolve = waiting;
        waiting = undefined;
        resolve({ value: undefined, done: true });
      }
    },
    next() {
      if (items.length > head) return Promise.resolve({ value: take() as T, done: false });
      if (paused) {
        paused = false;
        flow.resume();
      }
      if (closed) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    get size() {
      return items.length - head;
    },
  };
}
