/**
 * A progress bar on stderr for large inputs: only on a terminal, redrawn at most a few times a second, and erased
 * when done so that it never mixes with the output.
 */

import { displayPath, formatBytes } from '@cursor-stream/core/text';
import type { Progress } from '@cursor-stream/node/logs';

/** Inputs smaller than this finish before a bar would be worth drawing. */
export const PROGRESS_MIN_BYTES = 32 * 1024 * 1024;
/** Least time between two redraws. */
const REDRAW_INTERVAL_MS = 100;
const BAR_WIDTH = 24;

/** Where the bar is drawn: a stream with a terminal flag. */
export interface ProgressTarget {
  readonly isTTY?: boolean | undefined;
  write(text: string): unknown;
}

/** A {@link Progress} that does nothing: for small inputs and for stderr that is not a terminal. */
export const NO_PROGRESS: Progress = { advance() {}, done() {} };

/** The bar's text for `done` of `total` bytes, e.g. `[######------]  50% 12.0 MB / 24.0 MB run.ndjson`. */
export function progressLine(done: number, total: number, label: string): string {
  const fraction = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(fraction * BAR_WIDTH);
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${percent} ${formatBytes(done)} / ${formatBytes(total)} ${displayPath(label)}`;
}

/**
 * A bar for reading `total` bytes, or {@link NO_PROGRESS} when the target is not a terminal or the input is small
 * or of unknown size.
 */
export function createProgress(target: ProgressTarget, total: number | undefined, label: string): Progress {
  if (target.isTTY !== true || total === undefined || total < PROGRESS_MIN_BYTES) return NO_PROGRESS;
  let done = 0;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let drawn = false;
  return {
    advance(bytes) {
      done += bytes;
      const now = performance.now();
      if (now - lastDraw < REDRAW_INTERVAL_MS) return;
      lastDraw = now;
      drawn = true;
      target.write(`\r${progressLine(done, total, label)}\u001b[K`);
    },
    done() {
      if (drawn) target.write('\r\u001b[K');
      drawn = false;
    },
  };
}
