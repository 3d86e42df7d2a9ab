import type { CanonicalEvent } from '@cursor-stream/core';
import type { Approach } from './approaches/approach.ts';
import { type Chunking, filesOf, inputOf, type Reading } from './inputs.ts';
import { createCountingSink, createDigestSink, withoutLoc } from './sinks.ts';

/** What one run of one row gives; the child runner prints it as one JSON line. */
export interface RunResult {
  approach: string;
  /** Wall time from the first read to the last record, libraries already loaded. */
  ms: number;
  records: number;
  problems: number;
  /** Why the row gave up before the end of input, if it did. */
  stopped?: string;
  /** Values digest, in correctness runs. */
  digest?: string;
  /** Peak resident set size of the process so far, in MB (10^6 bytes). */
  peakRssMb: number;
}

/** How to run a row. */
export interface RunOptions {
  /** A file, or a folder whose files are read one after another, as a loop over many logs does. */
  file: string;
  chunking: Chunking;
  /** Read streams for every row (the default), or files read as a plain loop reads them (the command rows). */
  reading?: Reading;
  /** Digest every value (slower; for correctness runs). */
  digest: boolean;
}

function digestSinkFor(approach: Approach) {
  return approach.delivers === 'events'
    ? createDigestSink((value) => withoutLoc(value as CanonicalEvent))
    : createDigestSink();
}

/** Loads a row, then times it over the input. */
export async function runOnce(approach: Approach, options: RunOptions): Promise<RunResult> {
  const parse = await approach.load();
  const sink = options.digest ? digestSinkFor(approach) : createCountingSink();
  const files = filesOf(options.file);
  let stopped: string | undefined;
  const started = performance.now();
  try {
    for (const file of files) await parse(inputOf(file, options.chunking, options.reading), sink);
  } catch (error) {
    stopped = error instanceof Error ? error.message : String(error);
  }
  const ms = performance.now() - started;
  const result: RunResult = {
    approach: approach.name,
    ms,
    records: sink.records,
    problems: sink.problems,
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6,
  };
  if (stopped !== undefined) result.stopped = stopped;
  const digest = sink.digest();
  if (digest !== undefined) result.digest = digest;
  return result;
}
