/**
 * A run's memory does not grow with its output: stdout waits to be written to the log within a bound (the agent's
 * output is not read meanwhile), and the summary served for a run holds its text as head and tail.
 */

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createFileRunStore, type RunRecord, type RunStore } from '@cursor-stream/relay';
import { afterAll, describe, expect, test } from 'vitest';
import { createRunManager } from '../src/run-manager.ts';
import { summarizeRun } from '../src/run-summary.ts';
import { scratch, until } from './support.ts';

const dirs = scratch();
afterAll(() => dirs.remove());

/** A file store whose log writes wait until {@link open} is called, as a disk far slower than the agent would. */
function gatedStore(dir: string) {
  const inner = createFileRunStore(dir);
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const store: RunStore = {
    ...inner,
    createLog(runId) {
      const writer = inner.createLog(runId);
      return {
        append: async (chunk) => {
          await gate;
          await writer.append(chunk);
        },
        close: () => writer.close(),
      };
    },
  };
  return { store, open: () => open() };
}

describe('stdout is written to the log with backpressure', () => {
  test('the bytes waiting to be written stay within the bound while the log is stalled, and none is lost', async () => {
    const dir = join(dirs.dir, 'stalled');
    const { store, open } = gatedStore(dir);
    const bound = 256 * 1024;
    const runs = createRunManager(store, {
      // 4 MiB of output, sixteen times the bound.
      options: { binary: dirs.agent, env: { FAKE_AGENT_TEXT_MIB: '4' }, killGraceMs: 1000 },
      maxPendingBytes: bound,
    });
    const record = runs.start({ prompt: 'hi' });
    const live = runs.live(record.runId);
    if (live === undefined) throw new Error('the run is not live');
    // Sampled until the agent is held back: the count stops moving (or, without backpressure, passes the bound).
    let peak = 0;
    let last = -1;
    let still = 0;
    // Stillness counts only once output has come: a busy machine may take seconds to start the agent.
    for (let tries = 0; tries < 3000 && still < 25 && peak <= 4 * bound; tries++) {
      await sleep(20);
      const now = live.pendingBytes;
      peak = Math.max(peak, now);
      still = now === last && now > 0 ? still + 1 : 0;
      last = now;
    }
    expect(peak).toBeGreaterThan(0);
    // The chunk that crossed the bound is the most it is passed by (a pipe gives at most 64 KiB at a time).
    expect(peak).toBeLessThanOrEqual(bound + 64 * 1024);
    open();
    await until(() => store.load(record.runId)?.status !== 'running', 'the run to end', 120_000);
    const ended = store.load(record.runId) as RunRecord;
    expect(ended.error?.code).toBe('no-result');
    const summary = await summarizeRun(store, ended, false);
    expect(summary.session?.textLength).toBe(4 * (1 << 20));
    expect(statSync(join(dir, 'runs', `${record.runId}.ndjson`)).size).toBeGreaterThan(4 * (1 << 20));
    await runs.close();
  }, 180_000);
});

describe('a run the relay cannot follow to its end', () => {
  test('ends for its clients and in its record, which never stays running', async () => {
    const inner = createFileRunStore(join(dirs.dir, 'unfollowed'));
    let failures = 0;
    // The record of the run's end cannot be saved once (a full disk): following it fails past the agent's end.
    const store: RunStore = {
      ...inner,
      save(record) {
        if (record.status !== 'running' && failures === 0) {
          failures += 1;
          throw new Error('ENOSPC: no space left on device');
        }
        inner.save(record);
      },
    };
    const errors: unknown[] = [];
    const runs = createRunManager(store, {
      options: { binary: dirs.agent, killGraceMs: 1000 },
      onError: (error) => errors.push(error),
    });
    const record = runs.start({ prompt: 'hi' });
    const live = runs.live(record.runId);
    if (live === undefined) throw new Error('the run is not live');
    await until(() => store.load(record.runId)?.status !== 'running', 'the run to end', 60_000);
    const ended = store.load(record.runId) as RunRecord;
    expect(ended.status).toBe('failed');
    expect(ended.endedAt).not.toBeNull();
    expect(ended.error).toEqual({ code: 'relay-error', message: expect.stringMatching(/could not follow/) });
    expect(live.ended).toBe(true);
    expect(String(errors[0])).toMatch(/ENOSPC/);
    await runs.close();
  }, 90_000);
});

describe('the summary of a run', () => {
  test('holds its text as head and tail, says what it left out, and still compares it with the result', async () => {
    const store = createFileRunStore(join(dirs.dir, 'summary'));
    const runId = store.newRunId();
    const record: RunRecord = {
      runId,
      chatId: null,
      status: 'succeeded',
      createdAt: new Date(0).toISOString(),
      endedAt: new Date(0).toISOString(),
      model: null,
      mode: null,
      title: 'hi',
      error: null,
    };
    store.save(record);
    const session = { session_id: 's' };
    const pieces = Array.from({ length: 40 }, (_, index) => `${index}:${'z'.repeat(9_990)}\n`);
    const text = pieces.join('');
    const lines = [
      { type: 'system', subtype: 'init', model: 'm', ...session },
      ...pieces.map((piece) => ({
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'text', text: piece }] },
        ...session,
      })),
      { type: 'result', subtype: 'success', is_error: false, result: text, duration_ms: 5, ...session },
    ];
    const log = store.createLog(runId);
    await log.append(Buffer.from(lines.map((line) => `${JSON.stringify(line)}\n`).join('')));
    await log.close();
    const summary = await summarizeRun(store, record, false);
    expect(summary.session?.textLength).toBe(text.length);
    expect(summary.session?.text).toBe(`${text.slice(0, 65_536)}${text.slice(-65_536)}`);
    expect(summary.session?.textOmitted).toEqual({ at: 65_536, length: text.length - 131_072 });
    expect(summary.session?.textMatchesResult).toBe(true);
  });
});
