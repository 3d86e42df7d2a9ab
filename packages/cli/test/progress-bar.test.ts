import { describe, expect, test } from 'vitest';
import { createProgress, NO_PROGRESS, PROGRESS_MIN_BYTES, progressLine } from '../src/io/progress-bar.ts';
import { captureStream } from './support.ts';

describe('progressLine', () => {
  test('shows the bar, the percentage and the byte counts', () => {
    expect(progressLine(50_000_000, 100_000_000, 'run.ndjson')).toBe(
      '[############------------]  50% 50.0 MB / 100.0 MB run.ndjson',
    );
  });

  test('never goes past full', () => {
    expect(progressLine(3, 2, 'x')).toContain('100%');
  });
});

describe('createProgress', () => {
  test('stays silent when stderr is not a terminal', () => {
    const stderr = captureStream(false);
    expect(createProgress(stderr, PROGRESS_MIN_BYTES * 2, 'big')).toBe(NO_PROGRESS);
  });

  test('stays silent for a small input, and for one of unknown size', () => {
    const stderr = captureStream(true);
    expect([createProgress(stderr, 1000, 'small'), createProgress(stderr, undefined, 'pipe')]).toEqual([
      NO_PROGRESS,
      NO_PROGRESS,
    ]);
  });

  test('draws on a terminal for a large input and erases the bar when done', () => {
    const stderr = captureStream(true);
    const progress = createProgress(stderr, PROGRESS_MIN_BYTES, 'big.ndjson');
    progress.advance(PROGRESS_MIN_BYTES / 2);
    progress.done();
    expect(stderr.text).toBe(
      `\r${progressLine(PROGRESS_MIN_BYTES / 2, PROGRESS_MIN_BYTES, 'big.ndjson')}\u001b[K\r\u001b[K`,
    );
  });
});
