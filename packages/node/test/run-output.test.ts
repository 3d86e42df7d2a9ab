/**
 * What a run does with its output, however much of it there is and whatever reading it does: its text and its list
 * of tool calls are kept within a bound, a promise of `onStdout` holds reading back, and nothing thrown while reading
 * escapes the run.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import type { CanonicalEvent } from '@cursor-stream/core';
import { MAX_TOOL_CALLS_LISTED } from '@cursor-stream/core/sessions';
import { runAgent } from '@cursor-stream/node';
import { DOCS_EXAMPLE } from '@cursor-stream/test-kit/corpus';
import { installFakeAgent, readCall } from '@cursor-stream/test-kit/fake-agent';
import { scratchFolder } from '@cursor-stream/test-kit/scratch';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fakeRun, isAlive, typesOf } from './support.ts';

const scratch = scratchFolder('node');
let agent = '';

beforeAll(() => {
  agent = installFakeAgent(scratch.dir);
});
afterAll(() => scratch.remove());

/** Every event of a run, read as it goes, and its result. */
async function drain(run: ReturnType<typeof runAgent>) {
  const events: CanonicalEvent[] = [];
  for await (const event of run) events.push(event);
  return { events, result: await run.collect() };
}

describe('a throw while reading the output', () => {
  test.each([
    [
      'throws',
      () => {
        throw new Error('the log is full');
      },
    ],
    ['rejects', () => Promise.reject(new Error('the log is full'))],
  ] as const)(
    'an onStdout that %s ends the run with output-failed and stops the agent',
    async (_, onStdout) => {
      const record = `${scratch.dir}/throwing-${_}.json`;
      const run = runAgent(
        'hi',
        fakeRun(
          agent,
          { FAKE_AGENT_REPLAY: DOCS_EXAMPLE, FAKE_AGENT_HANG: 'after', FAKE_AGENT_RECORD: record },
          { onStdout },
        ),
      );
      const { events, result } = await drain(run);
      expect(result.error?.code).toBe('output-failed');
      expect(result.error?.message).toContain('Error: the log is full');
      // The agent hung after its output: only the supervisor's stop ended it.
      expect(isAlive(readCall(record).pid)).toBe(false);
      expect(typesOf(events).slice(-2)).toEqual(['error', 'finish']);
      expect(events.at(-1)).toMatchObject({ type: 'finish', isError: true });
    },
  );

  test('a value that cannot even be described is still the run’s failure, not the host’s', async () => {
    const hostile = {
      toString() {
        throw new Error('no words');
      },
    };
    const run = runAgent(
      'hi',
      fakeRun(
        agent,
        { FAKE_AGENT_REPLAY: DOCS_EXAMPLE },
        {
          onStdout: () => {
            throw hostile;
          },
        },
      ),
    );
    const { result } = await drain(run);
    expect(result.error?.code).toBe('output-failed');
  });
});

describe('a promise of onStdout', () => {
  test('holds reading back until it settles: the agent waits on its pipe, then goes on and nothing is lost', async () => {
    const record = `${scratch.dir}/held.json`;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let chunks = 0;
    const run = runAgent(
      'hi',
      // 1 MiB of output, far more than a pipe holds: an agent whose output is not read blocks on it.
      fakeRun(
        agent,
        { FAKE_AGENT_TEXT_MIB: '1', FAKE_AGENT_RECORD: record },
        {
          onStdout: () => {
            chunks += 1;
            return chunks === 1 ? held : undefined;
          },
        },
      ),
    );
    const reading = drain(run);
    for (let tries = 0; tries < 400 && chunks === 0; tries++) await sleep(25);
    // A while for more output to arrive, were it read.
    await sleep(500);
    expect(chunks).toBe(1);
    expect(isAlive(readCall(record).pid)).toBe(true);
    release();
    const { result } = await reading;
    expect(result.error?.code).toBe('no-result');
    expect(result.textLength).toBe(1 << 20);
    expect(chunks).toBeGreaterThan(1);
  });
});

describe('a run of any length', () => {
  test('a text past the bound is kept as head and tail, with its length and what was left out', async () => {
    const run = runAgent('hi', fakeRun(agent, { FAKE_AGENT_TEXT_MIB: '3' }));
    const { result } = await drain(run);
    const length = 3 * (1 << 20);
    expect(result.textLength).toBe(length);
    expect(result.text).toHaveLength(131_072);
    expect(result.textOmitted).toEqual({ at: 65_536, length: length - 131_072 });
    expect(result.text.startsWith('000000000000000:x')).toBe(true);
  });

  test('a run whose text passes 512 MiB (more than one string can hold) ends normally', {
    timeout: 300_000,
  }, async () => {
    const run = runAgent('hi', fakeRun(agent, { FAKE_AGENT_TEXT_MIB: '513' }));
    let deltas = 0;
    for await (const event of run) if (event.type === 'text-delta') deltas++;
    const result = await run.collect();
    expect(deltas).toBe(513);
    // The recording has no result: the run's own failure, not an exception.
    expect(result.error?.code).toBe('no-result');
    expect(result.textLength).toBe(513 * (1 << 20));
    expect(result.textOmitted?.length).toBe(513 * (1 << 20) - 131_072);
  });

  test.each([MAX_TOOL_CALLS_LISTED + 1, 20_000])(
    'a run of %i tool calls never completed lists the first 1,000 and counts the others',
    async (calls) => {
      const run = runAgent('hi', fakeRun(agent, { FAKE_AGENT_TOOL_CALLS: String(calls) }));
      let started = 0;
      for await (const event of run) if (event.type === 'tool-call') started++;
      const result = await run.collect();
      expect(started).toBe(calls);
      // What the run holds of its calls is the same whatever their number: the listed ones and two counts.
      expect(result.toolCalls).toHaveLength(MAX_TOOL_CALLS_LISTED);
      expect(result.toolCalls.at(-1)).toMatchObject({
        toolCallId: `call_${MAX_TOOL_CALLS_LISTED - 1}`,
        status: 'pending',
      });
      expect(result.toolCallsOmitted).toBe(calls - MAX_TOOL_CALLS_LISTED);
      expect(result.failedCallsOmitted).toBe(0);
    },
  );

  test('the failed calls past the listed ones are counted as failed', async () => {
    const calls = MAX_TOOL_CALLS_LISTED + 250;
    const run = runAgent(
      'hi',
      fakeRun(agent, { FAKE_AGENT_TOOL_CALLS: String(calls), FAKE_AGENT_TOOL_CALLS_FAIL: '1' }),
    );
    for await (const _ of run);
    const result = await run.collect();
    expect(result.toolCalls).toHaveLength(MAX_TOOL_CALLS_LISTED);
    expect(new Set(result.toolCalls.map((call) => call.status))).toEqual(new Set(['failure']));
    expect(result.toolCallsOmitted).toBe(250);
    expect(result.failedCallsOmitted).toBe(250);
  });

  test('a collected run keeps every event when asked, and still lists its calls within the bound', async () => {
    const calls = MAX_TOOL_CALLS_LISTED + 10;
    const result = await runAgent('hi', fakeRun(agent, { FAKE_AGENT_TOOL_CALLS: String(calls) })).collect();
    expect(result.events.filter((event) => event.type === 'tool-call')).toHaveLength(calls);
    expect(result.toolCalls).toHaveLength(MAX_TOOL_CALLS_LISTED);
    expect(result.toolCallsOmitted).toBe(10);
  });
});
