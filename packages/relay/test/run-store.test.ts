import { readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { scratchFolder } from '@cursor-stream/test-kit/scratch';
import { afterAll, describe, expect, test } from 'vitest';
import { createFileRunStore, type RunRecord } from '../src/run-store.ts';

const folder = scratchFolder('run-store');
afterAll(() => folder.remove());

function record(runId: string): RunRecord {
  return {
    runId,
    chatId: null,
    status: 'succeeded',
    createdAt: new Date(0).toISOString(),
    endedAt: null,
    model: null,
    mode: null,
    title: runId,
    error: null,
  };
}

/** The id of the `n`th run: its time part grows with `n`, as the store's own ids do. */
const idOf = (n: number) => `${n.toString(36).padStart(9, '0')}-${'0'.repeat(12)}`;

describe('the file store’s list of runs', () => {
  test('gives the newest first from the runs it keeps and those saved since, past a record removed under it', () => {
    const dir = join(folder.dir, 'data');
    const first = createFileRunStore(dir);
    for (let n = 1; n <= 1_200; n++) first.save(record(idOf(n)));
    // A relay started on a folder of runs lists the newest of them.
    const store = createFileRunStore(dir);
    expect(store.list(3).map((run) => run.runId)).toEqual([idOf(1_200), idOf(1_199), idOf(1_198)]);
    store.save(record(idOf(1_201)));
    store.save(record(idOf(1_201)));
    expect(store.list(2).map((run) => run.runId)).toEqual([idOf(1_201), idOf(1_200)]);
    // A record a person deletes is passed over, and the list still has as many runs as asked.
    rmSync(join(dir, 'runs', `${idOf(1_200)}.json`));
    expect(store.list(2).map((run) => run.runId)).toEqual([idOf(1_201), idOf(1_199)]);
    expect(store.list(2).map((run) => run.runId)).toEqual([idOf(1_201), idOf(1_199)]);
    // The folder is read once, not per list: a record put there by hand, not saved, waits for a list that reads it.
    createFileRunStore(join(folder.dir, 'elsewhere')).save(record(idOf(5_000)));
    renameSync(
      join(folder.dir, 'elsewhere/runs', `${idOf(5_000)}.json`),
      join(dir, 'runs', `${idOf(5_000)}.json`),
    );
    expect(store.list(1).map((run) => run.runId)).toEqual([idOf(1_201)]);
    // A list longer than the store keeps reads the folder: every run, newest first.
    const all = store.list(Number.MAX_SAFE_INTEGER).map((run) => run.runId);
    expect(all).toHaveLength(readdirSync(join(dir, 'runs')).length);
    expect(all.slice(0, 2)).toEqual([idOf(5_000), idOf(1_201)]);
    expect(all.at(-1)).toBe(idOf(1));
  });
});
