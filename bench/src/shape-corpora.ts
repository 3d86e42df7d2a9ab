/**
 * The log shapes the command rows are measured on: every generator profile, the recorded captures repeated to the
 * same size, and a folder of many small logs (the shape of "validate every captured log" and "usage over all my
 * runs"). A figure that holds on one generated corpus says nothing of the others, so each is a row set of its own.
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { sharedFolder } from '@cursor-stream/test-kit/corpus';
import { PROFILE_NAMES, type ProfileName } from '../../corpus/generator/index.ts';
import { DEFAULT_SEED, ensureCorpus } from './corpora.ts';
import { REPOSITORY_ROOT } from './spawn-run.ts';
import { START_UP_LOG } from './start-up-and-jobs.ts';
import type { Log } from './throughput.ts';

/** Size of each single-file shape, MB (10^6 bytes). */
export const DEFAULT_SHAPE_MB = 100;
/** Logs in the folder of many small logs. */
export const DEFAULT_LOG_COUNT = 10_000;

/**
 * One shape: a file read as one log, or a folder of logs read one after another; or one of the fixed costs, start-up
 * (on the README's small recording) and two jobs against one (on a file ten times a shape's size).
 */
export interface LogShape {
  name: string;
  /** What it is, for the report. */
  description: string;
  path: string;
  kind: 'file' | 'folder' | 'start-up' | 'two-jobs';
}

/** How many times a shape's size the file of the two-jobs measurement is: 1 GB for 100 MB shapes. */
const TWO_JOBS_SCALE = 10;

const GENERATED = join(REPOSITORY_ROOT, 'corpus/generated');
/** The repository's own recordings of the dialects the commands read (other agents' logs are refused). */
const OWN_CAPTURE_FOLDERS = ['corpus/official', 'corpus/payload-envelope', 'corpus/python-wrapper'];

/** The seed of each profile's corpus: `small` has the seed its published figures were measured on. */
function seedOf(profile: ProfileName): number {
  return profile === 'small' ? 3 : DEFAULT_SEED;
}

/** The recorded captures: the shared real ones when present, and the repository's own. */
export function captureFiles(): string[] {
  const own = OWN_CAPTURE_FOLDERS.flatMap((folder) => {
    const path = join(REPOSITORY_ROOT, folder);
    return readdirSync(path)
      .filter((name) => name.endsWith('.ndjson'))
      .sort()
      .map((name) => join(path, name));
  });
  return [...sharedFolder('real-corpus').ndjsonFiles(), ...own];
}

/** What a derived corpus was made from, so that it is made again when its sources change. */
function fingerprintOf(sources: readonly string[], extra: string): string {
  return JSON.stringify({ extra, sources: sources.map((file) => [file, statSync(file).size]) });
}

async function upToDate(marker: string, fingerprint: string): Promise<boolean> {
  return existsSync(marker) && (await readFile(marker, 'utf8')) === fingerprint;
}

/** One capture's bytes, ending with a line feed so that captures joined stay one record a line. */
function captureBytes(file: string): Buffer {
  const bytes = readFileSync(file);
  return bytes.length === 0 || bytes[bytes.length - 1] === 0x0a
    ? bytes
    : Buffer.concat([bytes, Buffer.from('\n')]);
}

/** The captures joined and repeated until `targetBytes` is reached. */
async function ensureRepeatedCaptures(file: string, targetBytes: number, log: Log): Promise<void> {
  const sources = captureFiles();
  const marker = `${file}.sources.json`;
  const fingerprint = fingerprintOf(sources, `bytes ${targetBytes}`);
  if (existsSync(file) && (await upToDate(marker, fingerprint))) return;
  log(`writing ${file}: ${sources.length} captures repeated to ${targetBytes / 1e6} MB ...`);
  const joined = Buffer.concat(sources.map(captureBytes));
  if (joined.length === 0) throw new Error('no captures to repeat');
  await mkdir(GENERATED, { recursive: true });
  const handle = await open(file, 'w');
  try {
    for (let written = 0; written < targetBytes; written += joined.length) await handle.write(joined);
  } finally {
    await handle.close();
  }
  await writeFile(marker, fingerprint);
}

/** A folder of `count` logs, each one of the captures in turn. */
async function ensureManyLogs(folder: string, count: number, log: Log): Promise<void> {
  const sources = captureFiles();
  const marker = `${folder}.sources.json`;
  const fingerprint = fingerprintOf(sources, `logs ${count}`);
  if (existsSync(folder) && (await upToDate(marker, fingerprint))) return;
  log(`writing ${folder}: ${count} logs cycling over ${sources.length} captures ...`);
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  const contents = sources.map(captureBytes);
  const digits = String(count - 1).length;
  for (let index = 0; index < count; index++) {
    const name = `log-${String(index).padStart(digits, '0')}.ndjson`;
    await writeFile(join(folder, name), contents[index % contents.length] as Buffer);
  }
  await writeFile(marker, fingerprint);
}

/** Options of {@link ensureLogShapes}. */
export interface ShapeOptions {
  /** Size of each single-file shape, MB. */
  sizeMb: number;
  /** Logs in the folder shape. */
  logCount: number;
  /** Only these shapes, by name (all when absent). */
  only?: readonly string[];
}

/** The names of every shape, in the order they are measured. */
export function shapeNames(options: Pick<ShapeOptions, 'logCount' | 'sizeMb'>): string[] {
  return [
    ...PROFILE_NAMES.map((profile) => `profile-${profile}`),
    'real-captures',
    `logs-${options.logCount}`,
    'start-up',
    twoJobsName(options.sizeMb),
  ];
}

function twoJobsName(sizeMb: number): string {
  return `two-jobs-${sizeMb * TWO_JOBS_SCALE}mb`;
}

/**
 * Makes (when missing or out of date) and lists the shapes.
 *
 * @throws RangeError for an unknown name in `only`.
 */
export async function ensureLogShapes(options: ShapeOptions, log: Log): Promise<LogShape[]> {
  const { sizeMb, logCount } = options;
  const known = shapeNames(options);
  for (const name of options.only ?? [])
    if (!known.includes(name)) throw new RangeError(`unknown shape ${name}; known: ${known.join(', ')}`);
  const wanted = (name: string) => options.only === undefined || options.only.includes(name);
  const shapes: LogShape[] = [];
  for (const profile of PROFILE_NAMES) {
    const name = `profile-${profile}`;
    if (!wanted(name)) continue;
    const seed = seedOf(profile);
    const path = join(GENERATED, `${profile}-seed${seed}-${sizeMb}mb.ndjson`);
    await ensureCorpus(path, { seed, targetBytes: sizeMb * 1e6, profile, rawNewlines: 0 }, log);
    shapes.push({
      name,
      description: `pnpm corpus:generate --profile ${profile} --seed ${seed}, ${sizeMb} MB`,
      path,
      kind: 'file',
    });
  }
  const captures = captureFiles().length;
  if (wanted('real-captures')) {
    const path = join(GENERATED, `real-captures-${sizeMb}mb.ndjson`);
    await ensureRepeatedCaptures(path, sizeMb * 1e6, log);
    shapes.push({
      name: 'real-captures',
      description: `${captures} recorded captures joined and repeated to ${sizeMb} MB`,
      path,
      kind: 'file',
    });
  }
  const folderName = `logs-${logCount}`;
  if (wanted(folderName)) {
    const path = join(GENERATED, `many-logs-${logCount}`);
    await ensureManyLogs(path, logCount, log);
    shapes.push({
      name: folderName,
      description: `a folder of ${logCount} small logs (the ${captures} recorded captures in turn)`,
      path,
      kind: 'folder',
    });
  }
  if (wanted('start-up'))
    shapes.push({
      name: 'start-up',
      description: "each command on the README's small recording, against a bare node",
      path: START_UP_LOG,
      kind: 'start-up',
    });
  const twoJobs = twoJobsName(sizeMb);
  if (wanted(twoJobs)) {
    const megabytes = sizeMb * TWO_JOBS_SCALE;
    const path = join(GENERATED, `mixed-seed${DEFAULT_SEED}-${megabytes}mb.ndjson`);
    await ensureCorpus(
      path,
      { seed: DEFAULT_SEED, targetBytes: megabytes * 1e6, profile: 'mixed', rawNewlines: 0 },
      log,
    );
    shapes.push({
      name: twoJobs,
      description: `pnpm corpus:generate --profile mixed --seed ${DEFAULT_SEED}, ${megabytes} MB, on one job and on two`,
      path,
      kind: 'two-jobs',
    });
  }
  return shapes;
}

/** The bytes of a shape: its file's size, or the sum of its folder's files. */
export function shapeBytes(shape: LogShape): number {
  if (shape.kind !== 'folder') return statSync(resolve(REPOSITORY_ROOT, shape.path)).size;
  let total = 0;
  for (const name of readdirSync(shape.path)) total += statSync(join(shape.path, name)).size;
  return total;
}
