/**
 * Reading a log file in ranges on worker threads, with output written in file order and equal to one thread's.
 *
 * The ranges' line feeds are counted first, in parallel, so that every run knows the line number its range starts
 * on. Then the range being written (the head) runs, and idle workers run the ranges after it ahead of time. A run
 * reads on until a cut it accepts (see `range-run.ts`); the range after that cut becomes the head, and runs of
 * ranges it read through are dropped.
 *
 * A run started at a cut reads with a fresh record of started tool calls. Calls an earlier range started and never
 * completed stay in one thread's record, and matter only if a later range touches the same call id. So every run
 * names the ids it touched without an entry of its own, the main thread collects the ids each range left pending, and
 * a head batch that names one of those is never written. The range is read again (a resume) by the last run whose
 * state is exactly one thread's (the first, or an earlier resume), which kept its normalizer at the cut it stopped at:
 * it reads on without output up to the range, then writes it, leaving out the items already written. Each resume
 * starts at or after the last one's range, so all resumes together read the file at most once more. A dialect whose
 * calls end with their session (the CLI's: see `Dialect.callsEndWithSession`) forgets them at the session start every
 * cut is, as one thread does: a run from a cut then touches nothing of the ranges before, and is never read again.
 *
 * Memory stays bounded whatever the file's size: a run ahead of the head sends batches of about 256 KiB, the main
 * thread holds at most {@link HOLD_BYTES} of a run's unwritten output before it stops granting credit (a worker
 * sends at most 4 batches past its credit), and runs are started at most {@link WINDOW_PER_JOB} ranges per job ahead
 * of the head. Held output is thus at most `2 × jobs × (8 MiB + 1 MiB)`, plus one normalizer state per run.
 */

import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { ForeignLog, SourceLocation } from '@cursor-stream/core/normalize';
import {
  foreignProblem,
  ioError,
  LOG_WORKER_RESOURCE_LIMITS,
  type LogError,
  type LogResult,
  type LogStats,
  logError,
  type Progress,
} from '../logs/index.ts';
import type {
  FromRangeWorker,
  RangeWorkerSetup,
  RunBatch,
  RunSummary,
  ToRangeWorker,
} from './range-protocol.ts';
import type { RangeCounts, RangeRead } from './read-in-ranges.ts';
import type { SplitPlan } from './split-plan.ts';

// Built output runs the built (or bundled) worker beside this module; a run from source (tests, tsx) runs the
// TypeScript one.
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './range-worker.ts' : './range-worker.js',
  import.meta.url,
);

/** Unwritten output held for a run ahead of the head before it waits. */
const HOLD_BYTES = 8 * 1024 * 1024;
/** Ranges per job that runs may be started ahead of the head. */
const WINDOW_PER_JOB = 2;
/** Ids of pending tool calls the main thread keeps; past it, any id a run touches sends it back to be read again. */
const MAX_PENDING_KEPT = 100_000;

/** How the scheduler reads a planned file. */
interface PlannedReadOptions {
  readonly jobs: number;
  readonly consumer: URL;
  readonly setup: unknown;
  /** `auto` or the dialect forced. */
  readonly dialect: string;
  readonly maxRecordBytes?: number | undefined;
  readonly progress: Progress;
  items(items: readonly unknown[]): Promise<void>;
  result(result: unknown): void;
  readonly workerUrl?: URL | undefined;
}

/** What the written runs found, summed as each is written. */
interface Totals {
  events: number;
  invalidLines: number;
  foreign: ForeignLog | null;
}

interface WorkerHandle {
  readonly worker: Worker;
  /** Runs started on it and not finished. */
  active: number;
  /** Waiting for its line feed counts. */
  counted: ((lineFeeds: number[]) => void) | undefined;
}

interface HeldBatch {
  readonly batch: RunBatch;
  readonly credited: boolean;
}

interface Run {
  readonly id: number;
  readonly handle: WorkerHandle;
  /** The range its output starts at. */
  readonly range: number;
  /**
   * Whether its state is one thread's (the first range, a resume): its touches need no check, and it keeps its state
   * at the cut it stops at.
   */
  readonly trusted: boolean;
  readonly batches: HeldBatch[];
  held: number;
  done: { end: number; parked: boolean; summary: RunSummary } | undefined;
  cancelled: boolean;
}

function post(handle: WorkerHandle, message: ToRangeWorker): void {
  handle.worker.postMessage(message);
}

/** Consecutive ranges in `groups` parts of about equal bytes. */
function spansFor(bounds: readonly number[], groups: number): [number, number][][] {
  const size = bounds.at(-1) ?? 0;
  const parts: [number, number][][] = Array.from({ length: groups }, () => []);
  for (let range = 0; range + 1 < bounds.length; range += 1) {
    const from = bounds[range] ?? 0;
    const group = Math.min(groups - 1, Math.floor((from / Math.max(1, size)) * groups));
    parts[group]?.push([from, bounds[range + 1] ?? size]);
  }
  return parts;
}

/** The line feeds of every range, counted on the workers in parallel. */
async function countRanges(handles: readonly WorkerHandle[], bounds: readonly number[]): Promise<number[]> {
  const parts = spansFor(bounds, handles.length);
  const counts = await Promise.all(
    handles.map(
      (handle, index) =>
        new Promise<number[]>((resolve) => {
          handle.counted = resolve;
          post(handle, { type: 'count', spans: parts[index] ?? [] });
        }),
    ),
  );
  return counts.flat();
}

/** The line each range starts on, and the file's lines. */
function firstLines(
  lineFeeds: readonly number[],
  endsWithLineFeed: boolean,
): { starts: number[]; lines: number } {
  const starts: number[] = [];
  let before = 0;
  for (const count of lineFeeds) {
    starts.push(before + 1);
    before += count;
  }
  return { starts, lines: before + (endsWithLineFeed ? 0 : 1) };
}

/** Everything the scheduler keeps while the ranges are read, but the head. */
interface ScheduleBase {
  readonly plan: SplitPlan;
  readonly options: PlannedReadOptions;
  readonly handles: readonly WorkerHandle[];
  readonly firstLine: readonly number[];
  readonly endOfInput: SourceLocation;
  readonly ranges: number;
  readonly runs: Map<number, Run>;
  /** Runs started ahead of the head, by range. */
  readonly ahead: Map<number, Run>;
  /** Ranges inside a finished run ahead of the head: never started on their own. */
  readonly covered: Set<number>;
  /** The last written run whose state is one thread's and that kept it at the cut it stopped at. */
  trustedPark: Run | undefined;
  /** Tool calls that ranges written so far left pending; `null` once too many or unknown. */
  pending: Set<string> | null;
  /** Items of the head's range written so far. */
  written: number;
  nextAhead: number;
  lastId: number;
  readonly totals: Totals;
  readonly counts: RangeCounts;
  finished: ((result: LogResult<void>) => void) | undefined;
  pumping: boolean;
}

/** Everything the scheduler keeps while the ranges are read. */
interface Schedule extends ScheduleBase {
  /** The run whose output is being written. */
  head: Run;
}

function startRun(schedule: ScheduleBase, range: number, handle: WorkerHandle): Run {
  schedule.lastId += 1;
  const run: Run = {
    id: schedule.lastId,
    handle,
    range,
    trusted: range === 0,
    batches: [],
    held: 0,
    done: undefined,
    cancelled: false,
  };
  schedule.runs.set(run.id, run);
  handle.active += 1;
  schedule.counts.runs += 1;
  post(handle, {
    type: 'run',
    run: run.id,
    start: range,
    firstLine: schedule.firstLine[range] ?? 1,
    park: run.trusted,
    endOfInput: schedule.endOfInput,
  });
  return run;
}

function leastBusy(handles: readonly WorkerHandle[]): WorkerHandle {
  return handles.reduce((best, handle) => (handle.active < best.active ? handle : best));
}

function release(run: Run): void {
  if (run.trusted) post(run.handle, { type: 'release', parked: run.id });
}

function cancel(run: Run): void {
  if (run.cancelled) return;
  run.cancelled = true;
  run.batches.length = 0;
  if (run.done === undefined) {
    run.handle.active -= 1;
    post(run.handle, { type: 'cancel', run: run.id });
  } else if (run.done.parked) release(run);
}

/** Starts runs ahead of the head on idle workers, within the window. */
function fillAhead(schedule: Schedule): void {
  const limit = Math.min(schedule.ranges, schedule.head.range + 1 + WINDOW_PER_JOB * schedule.handles.length);
  for (; schedule.nextAhead < limit; schedule.nextAhead += 1) {
    const range = schedule.nextAhead;
    if (range <= schedule.head.range || schedule.covered.has(range) || schedule.ahead.has(range)) continue;
    const idle = schedule.handles.find((handle) => handle.active === 0);
    if (idle === undefined) return;
    schedule.ahead.set(range, startRun(schedule, range, idle));
  }
}

/** Drops the runs of ranges a finished run read through. */
function coverRanges(schedule: Schedule, from: number, to: number): void {
  for (let range = from + 1; range < to; range += 1) {
    schedule.covered.add(range);
    const run = schedule.ahead.get(range);
    schedule.ahead.delete(range);
    if (run !== undefined) cancel(run);
  }
}

function credit(run: Run): void {
  if (!run.cancelled) post(run.handle, { type: 'credit', run: run.id });
}

function onBatch(schedule: Schedule, run: Run, batch: RunBatch): void {
  const early = run !== schedule.head && run.held + batch.bytes <= HOLD_BYTES;
  run.batches.push({ batch, credited: early });
  run.held += batch.bytes;
  if (early) credit(run);
}

function onDone(schedule: Schedule, run: Run, message: FromRangeWorker & { type: 'done' }): void {
  run.handle.active -= 1;
  run.batches.push({ batch: message.batch, credited: true });
  run.done = { end: message.end, parked: message.parked, summary: message.summary };
  // A run's cuts do not depend on the tool calls it may have to be read again for: its end stands.
  if (run !== schedule.head) coverRanges(schedule, run.range, message.end);
}

function touchesPending(schedule: Schedule, touches: readonly string[]): boolean {
  const pending = schedule.pending;
  if (pending === null) return touches.length > 0;
  return pending.size > 0 && touches.some((id) => pending.has(id));
}

/** The head touched a call an earlier range left pending: read its range again from one thread's state. */
function resumeHead(schedule: Schedule): void {
  const head = schedule.head;
  const park = schedule.trustedPark;
  if (park === undefined) throw new Error(`no state kept to read range ${head.range} again from`);
  schedule.trustedPark = undefined;
  cancel(head);
  schedule.lastId += 1;
  const run: Run = {
    id: schedule.lastId,
    handle: park.handle,
    range: head.range,
    trusted: true,
    batches: [],
    held: 0,
    done: undefined,
    cancelled: false,
  };
  schedule.runs.set(run.id, run);
  park.handle.active += 1;
  schedule.counts.runs += 1;
  schedule.counts.resumed += 1;
  post(park.handle, {
    type: 'resume',
    run: run.id,
    parked: park.id,
    until: head.range,
    skip: schedule.written,
    endOfInput: schedule.endOfInput,
  });
  schedule.head = run;
}

function addPending(schedule: Schedule, pending: readonly string[] | null): void {
  if (schedule.pending === null) return;
  if (pending === null) {
    schedule.pending = null;
    return;
  }
  for (const id of pending) schedule.pending.add(id);
  if (schedule.pending.size > MAX_PENDING_KEPT) schedule.pending = null;
}

/** The head's range is written: its run's end becomes the next head, or the reading is over. */
function nextHead(schedule: Schedule): void {
  const head = schedule.head;
  const done = head.done;
  if (done === undefined) return;
  schedule.runs.delete(head.id);
  schedule.totals.events += done.summary.events;
  schedule.totals.invalidLines += done.summary.invalidLines;
  schedule.totals.foreign ??= done.summary.foreign;
  schedule.options.result(done.summary.result);
  schedule.counts.written += 1;
  addPending(schedule, done.summary.pending);
  if (done.end >= schedule.ranges) {
    finish(schedule, { ok: true, value: undefined });
    return;
  }
  if (head.trusted && done.parked) {
    if (schedule.trustedPark !== undefined) release(schedule.trustedPark);
    schedule.trustedPark = head;
  }
  coverRanges(schedule, head.range, done.end);
  const next = schedule.ahead.get(done.end) ?? startRun(schedule, done.end, leastBusy(schedule.handles));
  schedule.ahead.delete(done.end);
  schedule.head = next;
  schedule.written = 0;
  // Its batches held so far were credited up to the hold; the rest are credited as they are written.
  fillAhead(schedule);
}

/** Writes the head's batches in order, checking each first, and moves on to the next head as each run ends. */
async function pump(schedule: Schedule): Promise<void> {
  if (schedule.pumping) return;
  schedule.pumping = true;
  try {
    while (schedule.finished !== undefined) {
      const head = schedule.head;
      const next = head.batches.shift();
      if (next === undefined) {
        if (head.done === undefined) return;
        nextHead(schedule);
        continue;
      }
      head.held -= next.batch.bytes;
      if (!head.trusted && touchesPending(schedule, next.batch.touches)) {
        resumeHead(schedule);
        continue;
      }
      schedule.options.progress.advance(next.batch.read);
      await schedule.options.items(next.batch.items);
      schedule.written += next.batch.count;
      if (!next.credited) credit(head);
    }
  } finally {
    schedule.pumping = false;
  }
}

function finish(schedule: ScheduleBase, result: LogResult<void>): void {
  schedule.finished?.(result);
  schedule.finished = undefined;
}

function onMessage(schedule: Schedule, message: FromRangeWorker): void {
  if (message.type === 'counted') return;
  if (message.type === 'failed') {
    const run = message.run === null ? undefined : schedule.runs.get(message.run);
    if (run === undefined || !run.cancelled) finish(schedule, { ok: false, error: message.error });
    return;
  }
  const run = schedule.runs.get(message.run);
  if (run === undefined || run.cancelled) {
    if (message.type === 'done' && message.parked && run !== undefined) release(run);
    return;
  }
  if (message.type === 'batch') onBatch(schedule, run, message);
  else onDone(schedule, run, message);
  fillAhead(schedule);
  pump(schedule).catch((error: unknown) =>
    finish(schedule, { ok: false, error: ioError(schedule.plan.path, error) }),
  );
}

function summarize(schedule: Schedule, lines: number): RangeRead {
  const { events, invalidLines, foreign } = schedule.totals;
  const { path, size, dialect } = schedule.plan;
  const stats: LogStats = {
    lines,
    bytes: size,
    events,
    invalidLines,
    dialect,
    foreign,
    // A log another agent's from its start is never split (see the split plan): what is read in ranges is kept.
    leftOut: false,
    inputProblems: [...(foreign === null ? [] : [foreignProblem(foreign, path)]), ...grownSince(path, size)],
  };
  return { stats, counts: schedule.counts };
}

/**
 * The problem of a file longer now than the `size` its ranges were planned on (a log its agent still writes): what
 * was written meanwhile is not read, and saying so is what keeps it from being dropped without a word.
 */
function grownSince(path: string, size: number): LogError[] {
  let now: number;
  try {
    now = statSync(path).size;
  } catch {
    return [];
  }
  if (now <= size) return [];
  const message = `grew by ${now - size} bytes while read in ranges: what came after byte ${size} is not read (--jobs 1 reads a growing log to its end)`;
  return [logError('grew-while-read', message, path)];
}

/** The workers, each with its setup; messages go to `dispatch`, counts to the handle's waiter. */
function startWorkers(
  plan: SplitPlan,
  options: PlannedReadOptions,
  dispatch: (message: FromRangeWorker) => void,
): WorkerHandle[] {
  const setup: RangeWorkerSetup = {
    path: plan.path,
    bounds: [...plan.starts, plan.size],
    consumer: options.consumer.href,
    setup: options.setup,
    firstDialect: options.dialect,
    dialect: plan.dialect,
    maxRecordBytes: options.maxRecordBytes,
  };
  return Array.from({ length: options.jobs }, () => {
    const handle: WorkerHandle = {
      worker: new Worker(options.workerUrl ?? WORKER_URL, {
        workerData: setup,
        resourceLimits: LOG_WORKER_RESOURCE_LIMITS,
      }),
      active: 0,
      counted: undefined,
    };
    handle.worker.on('message', (message: FromRangeWorker) => {
      if (message.type === 'counted') {
        handle.counted?.(message.lineFeeds);
        handle.counted = undefined;
      } else dispatch(message);
    });
    return handle;
  });
}

/** Runs the schedule once the line counts are known; resolves when every range is written, or on the first failure. */
function runSchedule(schedule: Schedule): Promise<LogResult<void>> {
  return new Promise((resolve) => {
    schedule.finished = resolve;
    fillAhead(schedule);
  });
}

/** The schedule at its start: the first range's run started, as the head. */
function createSchedule(
  plan: SplitPlan,
  options: PlannedReadOptions,
  handles: readonly WorkerHandle[],
  firstLine: readonly number[],
  lines: number,
): Schedule {
  const ranges = plan.starts.length;
  const base: ScheduleBase = {
    plan,
    options,
    handles,
    firstLine,
    endOfInput: { line: Math.max(1, lines), offset: plan.size },
    ranges,
    runs: new Map(),
    ahead: new Map(),
    covered: new Set(),
    trustedPark: undefined,
    pending: new Set(),
    written: 0,
    nextAhead: 1,
    lastId: 0,
    totals: { events: 0, invalidLines: 0, foreign: null },
    counts: { ranges, runs: 0, written: 0, resumed: 0 },
    finished: undefined,
    pumping: false,
  };
  return Object.assign(base, { head: startRun(base, 0, handles[0] as WorkerHandle) });
}

function workerFailure(plan: SplitPlan, error: unknown): LogError {
  const detail = error instanceof Error ? error.message : String(error);
  return logError('read-failed', `reading in parallel failed: ${detail}`, plan.path);
}

/**
 * Reads a planned file in ranges on `options.jobs` worker threads, handing the items of the ranges to
 * `options.items` in file order.
 *
 * @returns One thread's stats for the file, or the error that stopped it.
 */
export async function readPlanned(
  plan: SplitPlan,
  options: PlannedReadOptions,
): Promise<LogResult<RangeRead>> {
  let failed: ((error: LogError) => void) | undefined;
  const failure = new Promise<LogResult<never>>((resolve) => {
    failed = (error) => resolve({ ok: false, error });
  });
  // Until the runs start, the only message besides counts is a failure.
  let dispatch = (message: FromRangeWorker): void => {
    if (message.type === 'failed') failed?.(message.error);
  };
  const handles = startWorkers(plan, options, (message) => dispatch(message));
  for (const handle of handles) {
    handle.worker.on('error', (error) => failed?.(workerFailure(plan, error)));
    handle.worker.on('exit', (code) => failed?.(workerFailure(plan, `a worker stopped (exit code ${code})`)));
  }
  try {
    const counting = countRanges(handles, [...plan.starts, plan.size]).then((lineFeeds) => ({
      ok: true as const,
      value: lineFeeds,
    }));
    const counted = await Promise.race([counting, failure]);
    if (!counted.ok) return counted;
    const { starts, lines } = firstLines(counted.value, plan.endsWithLineFeed);
    const schedule = createSchedule(plan, options, handles, starts, lines);
    dispatch = (message) => onMessage(schedule, message);
    const outcome = await Promise.race([runSchedule(schedule), failure]);
    return outcome.ok ? { ok: true, value: summarize(schedule, lines) } : outcome;
  } finally {
    failed = undefined;
    await Promise.all(handles.map((handle) => handle.worker.terminate()));
  }
}
