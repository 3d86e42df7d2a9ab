/**
 * Finds or makes the corpora a run needs, with what a correct reader must deliver from each. Default corpora are
 * generated on first use from a fixed seed, so `pnpm bench` works from a fresh clone.
 */

import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type CorpusSummary, metaFileOf, writeCorpus } from '../../corpus/generator/index.ts';
import type { CorrectnessCorpus } from './correctness.ts';
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
export async function ensureDefaultCorpus(file: string, rawNewlines: number, log: Log): Promise<void> {
  if (existsSync(file) && existsSync(metaFileOf(file))) return;
  log(`generating ${file} (seed ${DEFAULT_SEED}, 200 MB, raw newlines ${rawNewlines}) ...`);
  await mkdir(dirname(file), { recursive: true });
  await writeCorpus(file, { seed: DEFAULT_SEED, targetBytes: DEFAULT_SIZE_BYTES, rawNewlines });
}

/** Generates the split-UTF-8 corpus into `directory`. */
export async function writeSplitUtf8Corpus(directory: string): Promise<CorrectnessCorpus> {
  const file = join(directory, 'split-utf8.ndjson');
  const summary = await writeCorpus(file, SPLIT_UTF8_OPTIONS);
  return correctnessCorpusOf('split-utf8', file, 'odd', summary);
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
