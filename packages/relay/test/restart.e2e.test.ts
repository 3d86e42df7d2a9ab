import { join } from 'node:path';
import type { CanonicalEvent } from '@cursor-stream/core';
import { INTERRUPTED } from '@cursor-stream/relay';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { eventsOf, readSse } from '@cursor-stream/test-kit/sse';
import { afterAll, expect, test } from 'vitest';
import { normalizeWithCli, postRun, scratch, startServe } from './support.ts';

const space = scratch();
afterAll(() => space.remove());

test('after the server is killed mid-run and started again, a client resumes with no duplicate and no gap', async () => {
  const dataDir = join(space.dir, 'data');
  const agentEnv = {
    FAKE_AGENT_REPLAY: DOCS_EXAMPLE,
    FAKE_AGENT_CHUNK_BYTES: '120',
    FAKE_AGENT_DELAY_MS: '150',
  };
  const first = await startServe(['--data-dir', dataDir, '--agent', space.agent], agentEnv);
  const runId = await postRun(first.url, { prompt: 'Summarize README.md' });
  const before = eventsOf((await readSse(`${first.url}/api/runs/${runId}/events`, { limit: 4 })).messages);
  expect(before).toHaveLength(4);
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('close', resolve));

  const second = await startServe(['--data-dir', dataDir, '--agent', space.agent], agentEnv);
  try {
    const lastId = before.at(-1)?.id ?? '';
    const after = eventsOf(
      (await readSse(`${second.url}/api/runs/${runId}/events`, { headers: { 'last-event-id': lastId } }))
        .messages,
    );
    const received = [...before, ...after];
    // Exactly once each, in order: the events of the log as it was left, then why the run stopped, then its end.
    const ids = received.map(({ id }) => id);
    expect(new Set(ids).size).toBe(ids.length);
    const logged = await normalizeWithCli(join(dataDir, 'runs', `${runId}.ndjson`));
    const finish = logged.at(-1);
    expect(finish).toMatchObject({ type: 'finish', finishReason: 'incomplete' });
    const expected: CanonicalEvent[] = [
      ...logged.slice(0, -1),
      { type: 'error', ...INTERRUPTED, sessionId: 'c6b62c6f-7ead-4fd6-9922-e952131177ff' },
      { ...(finish as CanonicalEvent), isError: true } as CanonicalEvent,
    ];
    expect(received.map(({ event }) => event)).toEqual(expected);
    const summary = (await (await fetch(`${second.url}/api/runs/${runId}`)).json()) as Record<
      string,
      unknown
    >;
    expect(summary).toMatchObject({ status: 'interrupted', error: INTERRUPTED });
    // A client that saw everything is told so, and stops.
    expect((await readSse(`${second.url}/api/runs/${runId}/events?after=${ids.at(-1)}`)).status).toBe(204);
  } finally {
    second.child.kill('SIGTERM');
  }
  // SIGTERM stops the server cleanly.
  const code = second.child.exitCode ?? (await new Promise((resolve) => second.child.once('close', resolve)));
  expect(code).toBe(0);
});
