/**
 * Finds or makes the corpora a run needs, with what a correct reader must deliver from each. Default corpora are
 * generated on first use from a fixed seed, so `pnpm bench` works from a fresh clone.
 */

import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  type CorpusOptions,
  type CorpusSummary,
  metaFileOf,
  writeCorpus,
} from '../../corpus/generator/index.ts';
import type { Approach } from './approaches/approach.ts';
import type { CorrectnessCorpus } from './correctness.ts';
import { eventRows, expectedEvents } from './expected-events.ts';
import type { Chunking } from './inputs.ts';
import { REPOSITORY_ROOT } from './spawn-run.ts';
import type { Log } from './throughput.ts';

/** The seed and size of the default corpora (the ones the project's measurements use). */
export const DEFAULT_SEED = 1;
const DEFAULT_SIZE_BYTES = 200e6;
/** The default corpus and its raw-newline variant. */
export const DEFAULT_CORPUS = join(REPOSITORY_ROOT, 'corpus/generated/mixed.ndjson');
export const DEFAULT_RAW_NEWLINE_CORPUS = join(REPOSITORY_ROOT, 'corpus/generated/mixed-rawnl.ndjson');
/** The split-UTF-8 corpus: small, because a 1-7 byte chunking costs every library a stream event per chunk. */
const SPLIT_UTF8_OPTIONS = { seed: 7, targetBytes: 40_000, profile: 'small' } as const;

/** Reads the generator's summary beside a corpus file, if there is one. */
export function readSummary(file: string): CorpusSummary | undefined {
  const meta = metaFileOf(file);
  return existsSync(meta) ? (JSON.parse(readFileSync(meta, 'utf8')) as CorpusSummary) : undefined;
}

/** Makes a default corpus when it is missing. */
export function ensureDefaultCorpus(file: string, rawNewlines: number, log: Log): Promise<void> {
  return ensureCorpus(file, { seed: DEFAULT_SEED, targetBytes: DEFAULT_SIZE_BYTES, rawNewlines }, log);
}

/** Generates a corpus when it (or its summary) is missing. */
export async function ensureCorpus(file: string, options: CorpusOptions, log: Log): Promise<void> {
  if (existsSync(file) && existsSync(metaFileOf(file))) return;
  log(
    `generating ${file} (seed ${options.seed}, ${options.targetBytes / 1e6} MB, raw newlines ${options.rawNewlines ?? 0}) ...`,
  );
  await mkdir(dirname(file), { recursive: true });
  await writeCorpus(file, options);
}

/** Generates the split-UTF-8 corpus into `directory`, with the events the rows of `approaches` must give. */
export async function writeSplitUtf8Corpus(
  directory: string,
  approaches: readonly Approach[],
): Promise<CorrectnessCorpus> {
  const file = join(directory, 'split-utf8.ndjson');
  const summary = await writeCorpus(file, SPLIT_UTF8_OPTIONS);
  return withExpectedEvents(correctnessCorpusOf('split-utf8', file, 'odd', summary), summary, approaches);
}

/**
 * Adds what the rows delivering events must give. Only a clean generated corpus (one record per line) can be read
 * for it; a raw-newline corpus borrows the expectation of the clean corpus with the same values digest.
 */
export async function withExpectedEvents(
  corpus: CorrectnessCorpus,
  summary: CorpusSummary,
  approaches: readonly Approach[],
  clean?: CorrectnessCorpus,
): Promise<CorrectnessCorpus> {
  const rows = eventRows(approaches);
  if (rows.length === 0) return corpus;
  if (summary.rawNewlineRecords === 0)
    return { ...corpus, expectedEvents: await expectedEvents(corpus.file, rows) };
  if (clean?.expectedEvents !== undefined && clean.expectedDigest === summary.valuesSha1)
    return { ...corpus, expectedEvents: clean.expectedEvents };
  return corpus;
}

/** A corpus for the correctness pass, from the generator's summary. */
export function correctnessCorpusOf(
  name: string,
  file: string,
  chunking: Chunking,
  summary: CorpusSummary,
): CorrectnessCorpus {
  return { name, file, chunking, expectedRecords: summary.records, expectedDigest: summary.valuesSha1 };
}

/** The size of a file in bytes. */
export function bytesOf(file: string): number {
  return statSync(file).size;
}
