/**
 * How far V8's young generation may grow while logs are read. Held at its first size (1 MB semi-spaces), memory stays
 * flat, but a log of short records pays a scavenge for every megabyte it allocates, and the objects of a chunk's
 * records, alive until the chunk's events are delivered, are copied at each: a sixth of a command's time on logs of
 * short records. Left to V8, the young generation grows to its largest (16 MB semi-spaces), and a long record parsed
 * at once makes it grow that far within one parse, adding about 170 MB at the peak on 32 MB records. So it may grow
 * only up to a cap, and only until a long line is met: from then on it stays as it is.
 */

import type { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The young generation a command's heap may grow to: semi-spaces of 4 MB, where scavenges cost little. */
export const YOUNG_GENERATION_CAP_BYTES = 8 * 1024 * 1024;

/**
 * The resource limits of a worker thread that reads logs: its young generation capped at
 * {@link YOUNG_GENERATION_CAP_BYTES}, whatever the process's growth factor, so a worker needs neither a watch nor a
 * hold (which, V8's flags being the process's, would hold every thread's). V8 sizes a young generation as three
 * semi-spaces, the two of the cap and as much again for new large objects.
 */
export const LOG_WORKER_RESOURCE_LIMITS = {
  maxYoungGenerationSizeMb: (1.5 * YOUNG_GENERATION_CAP_BYTES) / (1024 * 1024),
} as const;

/** A line at least this long may be parsed at once into objects large enough to grow the young generation. */
export const LONG_LINE_BYTES = 256 * 1024;

/**
 * Growth starts once the process has watched this many bytes of logs. Until a scavenge is near, growing changes
 * nothing, and the collection watch loads `node:perf_hooks`, which costs a command on a small log a tenth of its
 * start-up; a log this short never fills the first semi-space.
 */
export const GROW_AFTER_BYTES = 64 * 1024;

const LF = 0x0a;

/** Allowed and not held: the young generation grows once {@link GROW_AFTER_BYTES} have been watched. */
let growing = false;
let bytesWatched = 0;
/** Each collection's watch, from when growth starts (the growth factor raised) until it is held. */
let watch: PerformanceObserver | undefined;

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Lets V8's young generation grow, as far as {@link YOUNG_GENERATION_CAP_BYTES}, until {@link holdYoungGeneration}
 * or a line of {@link LONG_LINE_BYTES} read by {@link watchLineLengths}, from the chunk that brings the bytes the
 * watches have seen past {@link GROW_AFTER_BYTES}. It sets a process-wide V8 flag: the CLI asks for it as it starts;
 * a program embedding the readers decides for itself.
 */
export function allowYoungGenerationGrowth(): void {
  if (growing) return;
  growing = true;
  if (bytesWatched >= GROW_AFTER_BYTES) startGrowing();
}

function startGrowing(): void {
  setFlagsFromString('--semi-space-growth-factor=2');
  // V8 reads the factor at each scavenge; told after one, the young generation may outgrow the cap by one step.
  watch = new (process.getBuiltinModule('node:perf_hooks').PerformanceObserver)(() => {
    if (youngGenerationBytes() >= YOUNG_GENERATION_CAP_BYTES) holdYoungGeneration();
  });
  watch.observe({ entryTypes: ['gc'] });
}

/** Whether the young generation may still grow. */
export function youngGenerationGrowing(): boolean {
  return growing;
}

/** Keeps the young generation at the size it has now, for the rest of the process. */
export function holdYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  growing = false;
  watch?.disconnect();
  watch = undefined;
}

/**
 * Watches the lengths of one stream's lines as its chunks come, before they are read: a line of
 * {@link LONG_LINE_BYTES} holds the young generation before it is parsed. Costs a search for a line feed per chunk,
 * and nothing while the young generation is not growing.
 */
export function watchLineLengths(): (chunk: Uint8Array) => void {
  // Bytes of the line still open at the end of the last chunk.
  let open = 0;
  return (chunk) => {
    if (!growing) return;
    if (holdsLongLine(chunk, open)) {
      holdYoungGeneration();
      return;
    }
    bytesWatched += chunk.length;
    if (watch === undefined && bytesWatched >= GROW_AFTER_BYTES) startGrowing();
    const last = chunk.lastIndexOf(LF);
    open = last === -1 ? open + chunk.length : chunk.length - 1 - last;
  };
}

/** Whether a line of `chunk`, the first one carrying on `open` bytes, is (or, open at its end, already is) long. */
function holdsLongLine(chunk: Uint8Array, open: number): boolean {
  let lineFeed = chunk.indexOf(LF);
  if (lineFeed === -1) return open + chunk.length >= LONG_LINE_BYTES;
  if (open + lineFeed >= LONG_LINE_BYTES) return true;
  // Only a chunk longer than a long line can hold a whole one: reads are far shorter, a pipe's or gzip's may not be.
  if (chunk.length - lineFeed <= LONG_LINE_BYTES) return false;
  for (let next = chunk.indexOf(LF, lineFeed + 1); ; next = chunk.indexOf(LF, lineFeed + 1)) {
    const end = next === -1 ? chunk.length : next;
    if (end - lineFeed - 1 >= LONG_LINE_BYTES) return true;
    if (next === -1) return false;
    lineFeed = next;
  }
}
