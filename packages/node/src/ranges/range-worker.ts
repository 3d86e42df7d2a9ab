/**
 * A worker thread that reads ranges of one log file for one consumer module: it counts line feeds when asked, runs ranges
 * (fresh, or resumed from where an earlier run of this worker stopped), and sends their output in batches, at most
 * {@link MAX_BATCHES_IN_FLIGHT} ahead of what the main thread has taken.
 */

import { openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { ioError, logError } from '../logs/index.ts';
import { countLineFeeds } from './line-feeds.ts';
import { CONSUMER_EXPORT, type ConsumerFactory } from './range-consumer.ts';
import type { FromRangeWorker, RangeWorkerSetup, RunBatch, ToRangeWorker } from './range-protocol.ts';
import {
  type RangeFile,
  type ReadState,
  type RunEnd,
  type RunIo,
  runFresh,
  runResumed,
  startReading,
} from './range-run.ts';

/** Batches a run may have sent that the main thread has not taken yet. */
const MAX_BATCHES_IN_FLIGHT = 4;

const port = parentPort;
const setup = workerData as RangeWorkerSetup;

function post(message: FromRangeWorker, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

/** The buffers of a batch's byte items, moved to the main thread rather than copied. */
function transfers(batch: RunBatch): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const item of batch.items) if (item instanceof Uint8Array) buffers.push(item.buffer as ArrayBuffer);
  return buffers;
}

/** A run's share of the flow control: batches it may still send, and whether it was cancelled. */
interface RunControl {
  credits: number;
  cancelled: boolean;
  wake: (() => void) | undefined;
}

const controls = new Map<number, RunControl>();
/** Where runs of this worker whose state is one thread's stopped, by run. */
const parked = new Map<number, ReadState>();

function runIo(run: number, control: RunControl): RunIo {
  return {
    async send(batch: RunBatch) {
      while (control.credits === 0 && !control.cancelled) {
        await new Promise<void>((resolve) => {
          control.wake = resolve;
        });
      }
      if (control.cancelled) return;
      control.credits -= 1;
      post({ type: 'batch', run, ...batch }, transfers(batch));
    },
    cancelled: () => control.cancelled,
  };
}

async function execute(
  run: number,
  read: (io: RunIo) => Promise<RunEnd | undefined>,
  state: ReadState,
  park: boolean,
): Promise<void> {
  const control: RunControl = { credits: MAX_BATCHES_IN_FLIGHT, cancelled: false, wake: undefined };
  controls.set(run, control);
  try {
    const end = await read(runIo(run, control));
    if (end === undefined || control.cancelled) return;
    if (end.parked && park) parked.set(run, state);
    const { batch, summary } = end;
    post({ type: 'done', run, end: end.end, parked: end.parked, batch, summary }, transfers(batch));
  } catch (error) {
    post({ type: 'failed', run, error: ioError(setup.path, error) });
  } finally {
    controls.delete(run);
  }
}

function start(file: RangeFile, factory: ConsumerFactory, message: ToRangeWorker & { type: 'run' }): void {
  const consumer = factory(0);
  const state = startReading(file, {
    range: message.start,
    firstLine: message.firstLine,
    dialect: message.start === 0 ? setup.firstDialect : setup.dialect,
    maxRecordBytes: setup.maxRecordBytes,
    onRecordFor:
      consumer.onRecord === undefined ? 'unproven-records' : (consumer.onRecordFor ?? 'every-record'),
    lazyStrings: consumer.lazyStrings ?? true,
  });
  void execute(
    message.run,
    (io) => runFresh(state, consumer, file, io, message.endOfInput),
    state,
    message.park,
  );
}

function resume(
  file: RangeFile,
  factory: ConsumerFactory,
  message: ToRangeWorker & { type: 'resume' },
): void {
  const state = parked.get(message.parked);
  parked.delete(message.parked);
  if (state === undefined) {
    post({
      type: 'failed',
      run: message.run,
      error: logError('read-failed', 'no such parked run', setup.path),
    });
    return;
  }
  const consumer = factory(message.skip);
  const at = { until: message.until, endOfInput: message.endOfInput };
  void execute(message.run, (io) => runResumed(state, consumer, file, io, at), state, true);
}

function control(run: number, change: (control: RunControl) => void): void {
  const found = controls.get(run);
  if (found === undefined) return;
  change(found);
  found.wake?.();
  found.wake = undefined;
}

function handle(file: RangeFile, factory: ConsumerFactory, message: ToRangeWorker): void {
  switch (message.type) {
    case 'count':
      post({
        type: 'counted',
        lineFeeds: message.spans.map(([from, to]) => countLineFeeds(file.fd, from, to)),
      });
      return;
    case 'run':
      start(file, factory, message);
      return;
    case 'resume':
      resume(file, factory, message);
      return;
    case 'credit':
      control(message.run, (found) => {
        found.credits += 1;
      });
      return;
    case 'cancel':
      control(message.run, (found) => {
        found.cancelled = true;
      });
      return;
    case 'release':
      parked.delete(message.parked);
      return;
  }
}

/** The consumer factory of the module the reader named, made from its setup. */
async function loadConsumer(): Promise<ConsumerFactory> {
  const loaded = (await import(setup.consumer)) as Record<string, unknown>;
  const create = loaded[CONSUMER_EXPORT];
  if (typeof create !== 'function')
    throw new Error(`${setup.consumer} exports no ${CONSUMER_EXPORT} function`);
  return await (create as (setup: unknown) => ConsumerFactory | Promise<ConsumerFactory>)(setup.setup);
}

async function main(): Promise<void> {
  const file: RangeFile = {
    fd: openSync(setup.path, 'r'),
    bounds: setup.bounds,
    dialect: setup.dialect,
  };
  let factory: ConsumerFactory;
  try {
    factory = await loadConsumer();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    post({
      type: 'failed',
      run: null,
      error: logError('read-failed', `no range consumer: ${detail}`, setup.path),
    });
    return;
  }
  port?.on('message', (message: ToRangeWorker) => {
    try {
      handle(file, factory, message);
    } catch (error) {
      post({ type: 'failed', run: null, error: ioError(setup.path, error) });
    }
  });
}

main().catch((error: unknown) => post({ type: 'failed', run: null, error: ioError(setup.path, error) }));
