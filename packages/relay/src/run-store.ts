/**
 * Where runs live: the run log interface, and its file implementation (the embedded default). A run is an
 * append-only log of the agent's stdout, byte for byte, and a small metadata record. Every id used as a file name
 * is checked against {@link RUN_ID_PATTERN} first, so no request can name a path outside the data directory.
 */

import { randomBytes } from 'node:crypto';
import {
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  write,
  writeFileSync,
} from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirectories } from '@cursor-stream/node/make-directories';
import type { RunFailure } from './log-events.ts';

/** How a run stands. `interrupted`: the relay stopped while the run was in flight. */
export type RunStatus = 'running' | 'succeeded' | 'failed' | 'cancelled' | 'interrupted';

/** What the relay keeps about a run besides its log. */
export interface RunRecord {
  runId: string;
  /** The chat the run continues, or the agent's session id once it names one. */
  chatId: string | null;
  status: RunStatus;
  /** ISO 8601. */
  createdAt: string;
  endedAt: string | null;
  model: string | null;
  mode: string | null;
  /** The prompt's first 200 characters, for a list of runs. */
  title: string;
  /** Why it failed, when it did. */
  error: RunFailure | null;
}

/** Appends to one run's log. */
export interface RunLogWriter {
  append(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Reads one run's log from a byte position. */
export interface RunLogReader {
  /** Up to `buffer.length` bytes at `position`; 0 at the current end. */
  read(buffer: Uint8Array, position: number): Promise<number>;
  close(): Promise<void>;
}

/** Writes one run's journal: the lines of its events as the relay served them (see `event-journal.ts`). */
export interface RunJournalWriter {
  /** Appends whole lines. */
  append(lines: readonly Uint8Array[]): Promise<void>;
  /** The journal holds every event of the run: readers may rely on it from now on. */
  complete(): Promise<void>;
  /** The journal could not keep up (or be written): it is removed, and resumes read the log instead. */
  abandon(): Promise<void>;
}

/** Reads one run's journal. */
export interface RunJournalReader extends RunLogReader {
  /** Whether the journal holds every event of the run (else it is still being written). */
  readonly complete: boolean;
  /** Its size now. */
  size(): Promise<number>;
}

/**
 * The storage of runs. The file store is the default; a shared log (Redis Streams, NATS JetStream) would implement
 * the same calls so that several relays serve the same runs (see the README's design note).
 */
export interface RunStore {
  newRunId(): string;
  save(record: RunRecord): void;
  load(runId: string): RunRecord | undefined;
  /** The newest runs first, at most `limit`. */
  list(limit: number): RunRecord[];
  /** Creates the run's empty log (synchronously, so that a client can open it at once). */
  createLog(runId: string): RunLogWriter;
  openLog(runId: string): Promise<RunLogReader>;
  /**
   * Starts the run's journal, when the store keeps journals (a store without them is served by reading logs).
   * Optional.
   */
  createJournal?(runId: string): Promise<RunJournalWriter>;
  /** The run's journal, complete or being written; `undefined` when it has none. Optional. */
  openJournal?(runId: string): Promise<RunJournalReader | undefined>;
}

/** Run ids: a time part (sortable) and a random part. Nothing else names a run file. */
export const RUN_ID_PATTERN = /^[0-9a-z]{9}-[0-9a-f]{12}$/;

/** Run ids a file store keeps in memory for its lists (see `createFileRunStore`); a longer list reads the folder. */
const LISTED_IDS = 1000;

/** Adds a run id to newest-first `ids` in its place (ids sort by time), keeping at most {@link LISTED_IDS}. */
function remember(ids: string[], runId: string): void {
  if (ids.includes(runId)) return;
  let at = 0;
  while (at < ids.length && (ids[at] as string) > runId) at++;
  if (at >= LISTED_IDS) return;
  ids.splice(at, 0, runId);
  if (ids.length > LISTED_IDS) ids.pop();
}

/** Whether `text` is a run id (and so safe as part of a file name). */
export function isRunId(text: string): boolean {
  return RUN_ID_PATTERN.test(text);
}

function isRunRecord(value: unknown): value is RunRecord {
  const record = value as Partial<RunRecord> | null;
  return typeof record?.runId === 'string' && isRunId(record.runId) && typeof record.status === 'string';
}

async function openReader(path: string): Promise<FileHandle | undefined> {
  try {
    return await open(path, 'r');
  } catch {
    return undefined;
  }
}

/**
 * The file store: `runs/<runId>.ndjson` (the log), `runs/<runId>.json` (the record) and `runs/<runId>.events` (the
 * journal; `.events.partial` while it is written) under `dataDir`. Journals a stopped relay left unfinished are
 * removed: a resume reads those runs' logs.
 */
export function createFileRunStore(dataDir: string): RunStore {
  const runsDir = join(dataDir, 'runs');
  makeDirectories(runsDir);
  for (const name of readdirSync(runsDir)) {
    if (name.endsWith(PARTIAL_JOURNAL)) rmSync(join(runsDir, name), { force: true });
  }
  const path = (runId: string, ext: string) => {
    if (!isRunId(runId)) throw new RangeError(`not a run id: ${JSON.stringify(runId)}`);
    return join(runsDir, `${runId}${ext}`);
  };
  /** Every run id with a record, newest first: a read of the whole folder. */
  const allIds = (): string[] =>
    readdirSync(runsDir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length))
      .filter(isRunId)
      .sort()
      .reverse();
  /**
   * The newest {@link LISTED_IDS} run ids, newest first, read from the folder once and kept as runs are saved: a list
   * of runs, which the page asks for often, must not read a folder that grows with every run ever kept.
   */
  let newest: string[] | undefined;
  const newestIds = (): readonly string[] => {
    newest ??= allIds().slice(0, LISTED_IDS);
    return newest;
  };
  const load = (runId: string): RunRecord | undefined => {
    try {
      const value: unknown = JSON.parse(readFileSync(path(runId, '.json'), 'utf8'));
      return isRunRecord(value) ? value : undefined;
    } catch {
      return undefined;
    }
  };

  return {
    newRunId: () => `${Date.now().toString(36).padStart(9, '0')}-${randomBytes(6).toString('hex')}`,
    save(record) {
      // Written whole, then renamed over the old one, so a crash never leaves half a record.
      const target = path(record.runId, '.json');
      writeFileSync(`${target}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
      renameSync(`${target}.tmp`, target);
      if (newest !== undefined) remember(newest, record.runId);
    },
    load: (runId) => (isRunId(runId) ? load(runId) : undefined),
    list(limit) {
      const ids = limit <= LISTED_IDS ? newestIds() : allIds();
      const records: RunRecord[] = [];
      for (const runId of ids) {
        if (records.length >= limit) break;
        const record = load(runId);
        if (record !== undefined) records.push(record);
        // A record gone from under the store (a person cleaning the folder): the next list reads the folder again.
        else newest = undefined;
      }
      return records;
    },
    createLog(runId) {
      const fd = openSync(path(runId, '.ndjson'), 'a');
      const writeAll = async (chunk: Uint8Array): Promise<void> => {
        const written = await new Promise<number>((resolve, reject) =>
          write(fd, chunk, (error, bytes) => (error === null ? resolve(bytes) : reject(error))),
        );
        if (written < chunk.length) await writeAll(chunk.subarray(written));
      };
      return {
        append: writeAll,
        close: async () => closeSync(fd),
      };
    },
    async openLog(runId) {
      const handle = await open(path(runId, '.ndjson'), 'r');
      return {
        read: async (buffer, position) => (await handle.read(buffer, 0, buffer.length, position)).bytesRead,
        close: () => handle.close(),
      };
    },
    async createJournal(runId) {
      const partial = path(runId, PARTIAL_JOURNAL);
      const handle = await open(partial, 'w');
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await handle.close();
      };
      return {
        async append(lines) {
          let pending = [...lines];
          while (pending.length > 0) {
            const { bytesWritten } = await handle.writev(pending);
            pending = unwritten(pending, bytesWritten);
          }
        },
        async complete() {
          await close();
          renameSync(partial, path(runId, JOURNAL));
        },
        async abandon() {
          await close().catch(() => {});
          rmSync(partial, { force: true });
        },
      };
    },
    async openJournal(runId) {
      // Tried again after the partial one: it may have been completed (renamed) in between.
      for (const [ext, complete] of [
        [JOURNAL, true],
        [PARTIAL_JOURNAL, false],
        [JOURNAL, true],
      ] as const) {
        const handle = await openReader(path(runId, ext));
        if (handle === undefined) continue;
        return {
          complete,
          read: async (buffer, position) => (await handle.read(buffer, 0, buffer.length, position)).bytesRead,
          size: async () => (await handle.stat()).size,
          close: () => handle.close(),
        };
      }
      return undefined;
    },
  };
}

/** The journal of a run whose events are all in it. */
const JOURNAL = '.events';
/** The journal of a run in flight. */
const PARTIAL_JOURNAL = '.events.partial';

/** What is left of `buffers` after the first `written` bytes. */
function unwritten(buffers: readonly Uint8Array[], written: number): Uint8Array[] {
  let skip = written;
  const left: Uint8Array[] = [];
  for (const buffer of buffers) {
    if (skip >= buffer.length) {
      skip -= buffer.length;
      continue;
    }
    left.push(skip === 0 ? buffer : buffer.subarray(skip));
    skip = 0;
  }
  return left;
}
