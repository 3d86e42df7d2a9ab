/**
 * Generates a corpus: sessions built from one seeded random source, written as records of a dialect, serialized to
 * NDJSON, and handed out in chunks of about a mebibyte so that a corpus of any size streams to disk without being
 * held in memory. Same options, same bytes.
 */

import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { buildSession } from './build-session.ts';
import { DIALECT_WRITERS } from './dialect-writers.ts';
import { PROFILES, type ProfileName } from './profiles.ts';
import { createRandom, deriveSeed } from './random.ts';
import { createRecordSerializer } from './serialize-record.ts';

/** What to generate. */
export interface CorpusOptions {
  /** Seed of the content; the raw-newline choice draws from a sequence derived from it. */
  seed: number;
  /** Size to reach in bytes; the corpus ends with the session that crosses it. */
  targetBytes: number;
  /** @defaultValue `'mixed'` */
  profile?: ProfileName;
  /** Share of records with a line break in a call id or text whose line breaks are written raw. @defaultValue 0 */
  rawNewlines?: number;
  /** @defaultValue `'official'` */
  dialect?: string;
}

/** Facts about a generated corpus; also written beside it as `<file>.meta.json`. */
export interface CorpusSummary {
  seed: number;
  profile: ProfileName;
  dialect: string;
  rawNewlines: number;
  bytes: number;
  /** JSON records (a raw-newline record spans several physical lines but is one record). */
  records: number;
  /** LF-terminated physical lines. */
  physicalLines: number;
  sessions: number;
  /** Records written with raw LF bytes inside strings. */
  rawNewlineRecords: number;
  /**
   * SHA-1 (hex) over `JSON.stringify(value) + "\n"` of every record value in order: a parser that delivers exactly
   * these values gives the same digest. The raw-newline variant of a seed has the clean variant's digest.
   */
  valuesSha1: string;
}

/** Chunks are joined to about this many UTF-16 units before they are handed out. */
const CHUNK_CHARS = 1 << 20;
const RAW_NEWLINE_STREAM = 1;

/**
 * Generates a corpus as text chunks.
 *
 * @returns A generator of chunks whose return value is the {@link CorpusSummary}.
 * @throws RangeError or TypeError on unknown profiles, dialects or out-of-range numbers.
 */
export function* generateCorpus(options: CorpusOptions): Generator<string, CorpusSummary> {
  const profileName = options.profile ?? 'mixed';
  const dialect = options.dialect ?? 'official';
  const rawNewlines = options.rawNewlines ?? 0;
  const writer = DIALECT_WRITERS.get(dialect);
  if (writer === undefined)
    throw new TypeError(`unknown dialect ${dialect}; known: ${[...DIALECT_WRITERS.keys()].join(', ')}`);
  if (!(rawNewlines >= 0 && rawNewlines <= 1))
    throw new RangeError(`rawNewlines must be in [0, 1], got ${rawNewlines}`);
  const profile = PROFILES[profileName];
  const random = createRandom(options.seed);
  const rawRandom = createRandom(deriveSeed(options.seed, RAW_NEWLINE_STREAM));
  const serialize = createRecordSerializer(rawNewlines, rawRandom.next);
  const hash = createHash('sha1');
  const summary: CorpusSummary = {
    seed: options.seed,
    profile: profileName,
    dialect,
    rawNewlines,
    bytes: 0,
    records: 0,
    physicalLines: 0,
    sessions: 0,
    rawNewlineRecords: 0,
    valuesSha1: '',
  };
  let pending: string[] = [];
  let pendingChars = 0;
  while (summary.bytes < options.targetBytes) {
    summary.sessions++;
    for (const record of writer.records(buildSession(random, profile))) {
      const { written, clean } = serialize(record);
      const line = `${written}\n`;
      hash.update(`${clean}\n`);
      summary.records++;
      summary.bytes += Buffer.byteLength(line);
      if (written !== clean) {
        summary.rawNewlineRecords++;
        summary.physicalLines += written.split('\n').length;
      } else summary.physicalLines++;
      pending.push(line);
      pendingChars += line.length;
      if (pendingChars >= CHUNK_CHARS) {
        yield pending.join('');
        pending = [];
        pendingChars = 0;
      }
    }
  }
  if (pending.length > 0) yield pending.join('');
  summary.valuesSha1 = hash.digest('hex');
  return summary;
}

/**
 * Generates a corpus into a file, streaming, and writes its summary beside it as `<file>.meta.json`.
 *
 * @returns The summary.
 */
export async function writeCorpus(file: string, options: CorpusOptions): Promise<CorpusSummary> {
  const output = createWriteStream(file);
  const chunks = generateCorpus(options);
  let step = chunks.next();
  while (step.done !== true) {
    if (!output.write(step.value)) await once(output, 'drain');
    step = chunks.next();
  }
  output.end();
  await finished(output);
  const summary = step.value;
  const meta = createWriteStream(metaFileOf(file));
  meta.end(`${JSON.stringify(summary, null, 2)}\n`);
  await finished(meta);
  return summary;
}

/** Where the summary of a corpus file is written. */
export function metaFileOf(file: string): string {
  return `${file}.meta.json`;
}
