/**
 * Where runs live: the run log interface, and its file implementation (the embedded default). A run is an
 * append-only log of the agent's stdout, byte for byte, and a small metadata record. Every id used as a file name
 * is checked against {@link RUN_ID_PATTERN} first, so no request can name a path outside the data directory.
 */

import { randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  write,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
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
}

/** Run ids: a time part (sortable) and a random part. Nothing else names a run file. */
export const RUN_ID_PATTERN = /^[0-9a-z]{9}-[0-9a-f]{12}$/;

/** Whether `text` is a run id (and so safe as part of a file name). */
export function isRunId(text: string): boolean {
  return RUN_ID_PATTERN.test(text);
}

function isRunRecord(value: unknown): value is RunRecord {
  const record = value as Partial<RunRecord> | null;
  return typeof record?.runId === 'string' && isRunId(record.runId) && typeof record.status === 'string';
}

/** The file store: `runs/<runId>.ndjson` (the log) and `runs/<runId>.json` (the record) under `dataDir`. */
export function createFileRunStore(dataDir: string): RunStore {
  const runsDir = join(dataDir, 'runs');
  mkdirSync(runsDir, { recursive: true });
  const path = (runId: string, ext: string) => {
    if (!isRunId(runId)) throw new RangeError(`not a run id: ${JSON.stringify(runId)}`);
    return join(runsDir, `${runId}${ext}`);
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
    },
    load: (runId) => (isRunId(runId) ? load(runId) : undefined),
    list(limit) {
      const ids = readdirSync(runsDir)
        .filter((name) => name.endsWith('.json'))
        .map((name) => name.slice(0, -'.json'.length))
        .filter(isRunId)
        .sort()
        .reverse();
      const records: RunRecord[] = [];
      for (const runId of ids) {
        if (records.length >= limit) break;
        const record = load(runId);
        if (record !== undefined) records.push(record);
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
  };
}
