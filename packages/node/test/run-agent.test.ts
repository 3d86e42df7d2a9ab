import { getEventListeners } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CanonicalEvent } from '@cursor-stream/core';
import { type AgentResult, runAgent } from '@cursor-stream/node';
import { DOCS_EXAMPLE, DOCS_EXAMPLE_SESSION, REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { installFakeAgent, readCall } from '@cursor-stream/test-kit/fake-agent';
import { scratchFolder } from '@cursor-stream/test-kit/scratch';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fakeRun, initAndPromptOnly, isAlive, normalizeFile, typesOf } from './support.ts';

const scratch = scratchFolder('node');
let agent = '';

beforeAll(() => {
  agent = installFakeAgent(scratch.dir);
});
afterAll(() => scratch.remove());

/** A failed run's shape: an `error` right before the one `finish`, which is last and marked as an error. */
function expectFailedEnding(result: AgentResult, code: string): void {
  expect(result.success).toBe(false);
  expect(result.error?.code).toBe(code);
  const events = result.events;
  expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ type: 'finish', isError: true });
  // The agent's own error result carries its message in words only; every other outcome names its code.
  const named = code === 'agent-error' ? {} : { code };
  expect(events.at(-2)).toMatchObject({ type: 'error', message: result.error?.message, ...named });
}

describe('reading part of a run', () => {
  /** A stream with more events than the run holds unread before it pauses the agent's output. */
  function longRecording(): string {
    const file = join(scratch.dir, 'long.ndjson');
    const thinking = (i: number) =>
      JSON.stringify({ type: 'thinking', subtype: 'delta', text: `t${i}`, session_id: 's' });
    const lines = [
      JSON.stringify({ type: 'system', subtype: 'init', session_id: 's', model: 'Auto' }),
      ...Array.from({ length: 3000 }, (_, i) => thinking(i)),
      JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: '', session_id: 's' }),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  }

  test('collect() after reading a few events resolves with every event with keepEvents, though the rest were never read', async () => {
    const run = runAgent('hi', fakeRun(agent, { FAKE_AGENT_REPLAY: longRecording() }, { keepEvents: true }));
    const iterator = run[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'stream-start' });
    const result = await run.collect();
    expect(result.success).toBe(true);
    expect(result.events).toHaveLength(3002);
    expect(isAlive(run.pid ?? -1)).toBe(false);
  });

  test('a run iterated before collect() keeps no events, and its result is complete without them', async () => {
    const run = runAgent('hi', fakeRun(agent, { FAKE_AGENT_REPLAY: longRecording() }));
    const iterator = run[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'stream-start' });
    const result = await run.collect();
    expect(result).toMatchObject({ success: true, error: null, sessionId: 's', events: [] });
  });

  test('next() called again before the last call resolved gives consecutive events', async () => {
    const run = runAgent('hi', fakeRun(agent, { FAKE_AGENT_REPLAY: DOCS_EXAMPLE }, { keepEvents: true }));
    const iterator = run[Symbol.asyncIterator]();
    const firstTwo = await Promise.all([iterator.next(), iterator.next()]);
    expect(firstTwo.map((step) => (step.value as CanonicalEvent).type)).toEqual([
      'stream-start',
      'user-message',
    ]);
    const result = await run.collect();
    expect(result.events.slice(0, 2)).toEqual(firstTwo.map((step) => step.value));
  });
});

describe('runAgent on a replayed recording', () => {
  test('yields the same events as normalizing the recording in process, and succeeds', async () => {
    const run = runAgent('Summarize', fakeRun(agent, { FAKE_AGENT_REPLAY: DOCS_EXAMPLE }));
    const seen: CanonicalEvent[] = [];
    for await (const event of run) seen.push(event);
    const result = await run.collect();

    expect(seen).toEqual(normalizeFile(DOCS_EXAMPLE));
    // Only iterated, so nothing was kept: the summary below is folded as the events went by.
    expect(result.events).toEqual([]);
    expect(result).toMatchObject({
      success: true,
      error: null,
      text: '我會閱讀 README.md 檔案並建立摘要',
      sessionId: DOCS_EXAMPLE_SESSION,
      requestId: '10e11780-df2f-45dc-a1ff-4540af32e9c0',
      durationMs: 5234,
      durationApiMs: 5234,
      exitCode: 0,
      signal: null,
      sessionChange: null,
    });
    expect(result.toolCalls.map((call) => [call.toolName, call.status])).toEqual([
      ['read', 'success'],
      ['write', 'success'],
    ]);
  });

  for (const chunkBytes of ['1', '7', '4096']) {
    test(`gives the same events when the agent writes ${chunkBytes}-byte chunks`, async () => {
      // A pause between chunks keeps them apart in the pipe; one-byte chunks are apart enough without it.
      const delay = chunkBytes === '1' ? '0' : '1';
      const vars = {
        FAKE_AGENT_REPLAY: DOCS_EXAMPLE,
        FAKE_AGENT_CHUNK_BYTES: chunkBytes,
        FAKE_AGENT_DELAY_MS: delay,
      };
      const result = await runAgent('Summarize', fakeRun(agent, vars)).collect();
      expect(result.events).toEqual(normalizeFile(DOCS_EXAMPLE));
    });
  }

  test('collect() reads the events itself when nobody iterates', async () => {
    const result = await runAgent('Summarize', fakeRun(agent, { FAKE_AGENT_REPLAY: DOCS_EXAMPLE })).collect();
    expect(result.success).toBe(true);
    expect(result.events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop', isError: false });
  });

  test('iterating a run twice is refused', async () => {
    const run = runAgent('Summarize', fakeRun(agent, { FAKE_AGENT_REPLAY: DOCS_EXAMPLE }));
    run[Symbol.asyncIterator]();
    expect(() => run[Symbol.asyncIterator]()).toThrow(TypeError);
    run.cancel();
    expect((await run.collect()).error?.code).toBe('cancelled');
  });
});

describe('runAgent arguments', () => {
  test('passes every flag as its own argument and the prompt on standard input', async () => {
    const record = join(scratch.dir, 'flags.json');
    const prompt = '--force; rm -rf / $(whoami) "quoted"\nsecond line';
    const options = fakeRun(
      agent,
      { FAKE_AGENT_RECORD: record, FAKE_AGENT_REPLAY: DOCS_EXAMPLE },
      {
        workspace: '/work space',
        model: 'sonnet-4',
        force: true,
        approveMcps: true,
        trust: true,
        headers: ['X-One: 1', 'X-Two: 2'],
        resume: DOCS_EXAMPLE_SESSION,
        streamPartialOutput: true,
        mode: 'plan',
        cwd: scratch.dir,
      },
    );
    const run = runAgent(prompt, options);
    await run.collect();
    const call = readCall(record);

    expect(call.argv).toEqual(run.args);
    expect(call.argv).toEqual([
      '--print',
      '--output-format',
      'stream-json',
      '--stream-partial-output',
      '--trust',
      '--force',
      '--approve-mcps',
      '--model',
      'sonnet-4',
      '--workspace',
      '/work space',
      '--resume',
      DOCS_EXAMPLE_SESSION,
      '--mode',
      'plan',
      '-H',
      'X-One: 1',
      '-H',
      'X-Two: 2',
    ]);
    expect(call.stdin).toBe(prompt);
    expect(call.cwd).toBe(scratch.dir);
  });

  test('passes no optional flag that was not asked for', async () => {
    const record = join(scratch.dir, 'bare.json');
    await runAgent('-starts with a dash', fakeRun(agent, { FAKE_AGENT_RECORD: record })).collect();
    const call = readCall(record);
    expect(call.argv).toEqual(['--print', '--output-format', 'stream-json']);
    expect(call.stdin).toBe('-starts with a dash');
  });

  test('with promptVia argv, passes the prompt last, after --, and nothing on standard input', async () => {
    const record = join(scratch.dir, 'argv.json');
    const options = fakeRun(agent, { FAKE_AGENT_RECORD: record }, { promptVia: 'argv' });
    await runAgent('-starts with a dash', options).collect();
    const call = readCall(record);
    expect(call.argv).toEqual(['--print', '--output-format', 'stream-json', '--', '-starts with a dash']);
    expect(call.stdin).toBe('');
  });

  test('a 2 MB prompt reaches the agent whole, a size no argument list could carry', async () => {
    const record = join(scratch.dir, 'large.json');
    const line = 'context: 日本語 and emoji 🧪, quotes "x" and a tab\t\n';
    const prompt = line.repeat(Math.ceil((2 * 1024 * 1024) / Buffer.byteLength(line)));
    const result = await runAgent(
      prompt,
      fakeRun(agent, { FAKE_AGENT_RECORD: record, FAKE_AGENT_REPLAY: DOCS_EXAMPLE }),
    ).collect();
    expect(result.success).toBe(true);
    const call = readCall(record);
    expect(Buffer.byteLength(call.stdin)).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    expect(call.stdin === prompt).toBe(true);
    expect(call.argv.join(' ')).not.toContain('context:');
  });

  test('passes the API key in the environment, never on the command line', async () => {
    const record = join(scratch.dir, 'key.json');
    await runAgent('hi', fakeRun(agent, { FAKE_AGENT_RECORD: record }, { apiKey: 'sk-secret' })).collect();
    const call = readCall(record);
    expect(call.apiKey).toBe('sk-secret');
    expect(call.argv.join(' ')).not.toContain('sk-secret');
  });

  test('refuses an argument the CLI would run as a subcommand, without starting anything', async () => {
    const record = join(scratch.dir, 'never.json');
    const run = runAgent('update', fakeRun(agent, { FAKE_AGENT_RECORD: record }, { promptVia: 'argv' }));
    const result = await run.collect();
    expectFailedEnding(result, 'invalid-prompt');
    expect(run.pid).toBeUndefined();
    expect(typesOf(result.events)).toEqual(['error', 'finish']);
  });

  test('passes a subcommand name on standard input as the prompt it is', async () => {
    const record = join(scratch.dir, 'update.json');
    await runAgent(
      'update',
      fakeRun(agent, { FAKE_AGENT_RECORD: record, FAKE_AGENT_REPLAY: DOCS_EXAMPLE }),
    ).collect();
    expect(readCall(record)).toMatchObject({
      stdin: 'update',
      argv: ['--print', '--output-format', 'stream-json'],
    });
  });
});

describe('runAgent failure paths', () => {
  test('a non-zero exit ends with exit-nonzero, quoting stderr', async () => {
    const recording = initAndPromptOnly(scratch.dir);
    const reason = 'ActionRequiredError: Named models unavailable Free plans can only use Auto.';
    const vars = { FAKE_AGENT_REPLAY: recording, FAKE_AGENT_STDERR: `${reason}\n`, FAKE_AGENT_EXIT: '1' };
    const result = await runAgent('hi', fakeRun(agent, vars)).collect();

    expectFailedEnding(result, 'exit-nonzero');
    expect(result.error?.message).toContain('exited with code 1');
    expect(result.error?.message).toContain(reason);
    expect(result.stderr).toBe(`${reason}\n`);
    expect(result.exitCode).toBe(1);
    expect(typesOf(result.events)).toEqual(['stream-start', 'user-message', 'error', 'finish']);
    expect(result.events.at(-1)).toMatchObject({ finishReason: 'incomplete', sessionId: result.sessionId });
  });

  test('an API key the agent quotes back is not in the error, its event, stderr or the noise lines', async () => {
    const key = 'sk-live-0123456789abcdef';
    const vars = {
      FAKE_AGENT_NOISE: `Signing in with ${key}\n`,
      FAKE_AGENT_STDERR: `Error: Authentication failed: invalid API key ${key}\n`,
      FAKE_AGENT_EXIT: '1',
    };
    const result = await runAgent('hi', fakeRun(agent, vars, { apiKey: key, keepEvents: true })).collect();
    expect(result.error?.message).toContain('invalid API key [redacted]');
    const said = [
      result.error?.message,
      result.stderr,
      ...result.stdoutNoise,
      JSON.stringify(result.events.filter((event) => event.type === 'error')),
    ];
    expect(said.filter((text) => text?.includes(key))).toEqual([]);
  });

  test('non-JSON stdout becomes invalid-line events and is quoted when stderr is empty', async () => {
    const vars = { FAKE_AGENT_NOISE: 'Press any key to sign in...\n', FAKE_AGENT_EXIT: '1' };
    const result = await runAgent('hi', fakeRun(agent, vars)).collect();

    expectFailedEnding(result, 'exit-nonzero');
    // A sign-in prompt is the CLI's failure sentence: the run is one session, failed before its first record.
    expect(typesOf(result.events)).toEqual(['invalid-line', 'stream-start', 'error', 'finish']);
    expect(result.stdoutNoise).toEqual(['Press any key to sign in...']);
    expect(result.error?.message).toContain('Press any key to sign in...');
  });

  test('stderr is kept bounded, its head and its tail', async () => {
    const vars = {
      FAKE_AGENT_STDERR: 'first line\n',
      FAKE_AGENT_STDERR_BYTES: String(1024 * 1024),
      FAKE_AGENT_EXIT: '2',
    };
    const result = await runAgent('hi', fakeRun(agent, vars, { maxCaptureBytes: 4096 })).collect();

    expect(result.stderrTruncated).toBe(true);
    expect(result.stderr.startsWith('first line\n')).toBe(true);
    expect(result.stderr.endsWith('xxxx')).toBe(true);
    expect(result.stderr.length).toBeLessThan(4096 + 100);
    expect(result.error?.message).toContain('first line');
  });

  test('a process killed by a signal it was not sent ends with signal', async () => {
    const vars = { FAKE_AGENT_REPLAY: DOCS_EXAMPLE, FAKE_AGENT_KILL_SELF: 'SIGKILL' };
    const result = await runAgent('hi', fakeRun(agent, vars)).collect();
    // The result arrived before the kill, but a process that dies by a signal did not end cleanly.
    expectFailedEnding(result, 'signal');
    expect(result.signal).toBe('SIGKILL');
    expect(result.error?.message).toContain('SIGKILL');
  });

  test('a record cut off before a crash is no sentence of the agent: the reason is its stderr', async () => {
    const recording = join(scratch.dir, 'cut-before-crash.ndjson');
    const whole = initAndPromptOnly(scratch.dir);
    writeFileSync(
      recording,
      `${readFileSync(whole, 'utf8')}{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"half`,
    );
    const vars = {
      FAKE_AGENT_REPLAY: recording,
      FAKE_AGENT_STDERR: 'Segmentation fault in the renderer\n',
      FAKE_AGENT_KILL_SELF: 'SIGSEGV',
    };
    const result = await runAgent('hi', fakeRun(agent, vars)).collect();
    expectFailedEnding(result, 'signal');
    expect(result.error?.message).toMatch(/killed by SIGSEGV: Segmentation fault in the renderer$/);
    expect(result.stdoutNoise).toEqual([]);
  });

  test('exit 0 without a result ends with no-result and an incomplete finish', async () => {
    const recording = initAndPromptOnly(scratch.dir);
    const result = await runAgent('hi', fakeRun(agent, { FAKE_AGENT_REPLAY: recording })).collect();
    expectFailedEnding(result, 'no-result');
    expect(result.events.at(-1)).toMatchObject({ finishReason: 'incomplete' });
  });

  test('an error result ends with agent-error and the agent’s own error event', async () => {
    const recording = join(scratch.dir, 'error-result.ndjson');
    const lines = [
      { type: 'system', subtype: 'init', session_id: 's-1', model: 'Auto' },
      {
        type: 'result',
        subtype: 'error',
        is_error: true,
        result: 'You have hit your usage limit',
        session_id: 's-1',
      },
    ];
    writeFileSync(recording, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const result = await runAgent(
      'hi',
      fakeRun(agent, { FAKE_AGENT_REPLAY: recording, FAKE_AGENT_EXIT: '1' }),
    ).collect();

    expect(result.error).toEqual({
      code: 'agent-error',
      message: 'You have hit your usage limit',
      failure: 'usage-limit',
    });
    expect(typesOf(result.events)).toEqual(['stream-start', 'error', 'finish']);
    expect(result.events.at(-1)).toMatchObject({ finishReason: 'error', isError: true });
  });

  test('a missing executable ends with spawn-failed, naming every candidate tried', async () => {
    const empty = scratchFolder('node');
    try {
      const result = await runAgent('hi', { env: { PATH: empty.dir } }).collect();
      expectFailedEnding(result, 'spawn-failed');
      expect(result.error?.message).toContain('cursor-agent (ENOENT)');
      expect(result.error?.message).toContain('agent (ENOENT)');
      expect(typesOf(result.events)).toEqual(['error', 'finish']);
    } finally {
      empty.remove();
    }
  });

  test('a script whose interpreter is missing is the answer: no other candidate runs the prompt', async () => {
    const bin = scratchFolder('node');
    try {
      const script = join(bin.dir, 'cursor-agent');
      writeFileSync(script, '#!/no/such/interpreter\n', { mode: 0o755 });
      // An `agent` that would run, and must not.
      writeFileSync(join(bin.dir, 'agent'), '#!/bin/sh\necho ran >&2\nexit 0\n', { mode: 0o755 });
      const result = await runAgent('hi', { env: { PATH: bin.dir } }).collect();
      expectFailedEnding(result, 'spawn-failed');
      expect(result.error?.message).toBe(
        'Could not start the agent: tried cursor-agent (it exists, but the interpreter its #! line names does not).',
      );
      const named = await runAgent('hi', { binary: script }).collect();
      expect(named.error?.message).toContain('the interpreter its #! line names does not');
    } finally {
      bin.remove();
    }
  });

  test('no executable at all is said as such', async () => {
    const result = await runAgent('hi', { binary: [] }).collect();
    expectFailedEnding(result, 'spawn-failed');
    expect(result.error?.message).toBe('Could not start the agent: tried nothing (no executable was given).');
  });

  test('a working folder that is not there is said as such, not as an agent that is not installed', async () => {
    const cwd = join(scratch.dir, 'no-such-folder');
    const result = await runAgent('hi', fakeRun(agent, {}, { cwd })).collect();
    expectFailedEnding(result, 'spawn-failed');
    expect(result.error?.message).toBe(
      `Could not start the agent: tried ${agent} (its working folder ${cwd} is not a folder that exists).`,
    );
  });

  test('falls back to `agent` when `cursor-agent` is not on the PATH', async () => {
    const bin = scratchFolder('node');
    try {
      installFakeAgent(bin.dir, 'agent');
      const result = await runAgent('hi', {
        env: { PATH: bin.dir, FAKE_AGENT_REPLAY: DOCS_EXAMPLE },
      }).collect();
      expect(result.success).toBe(true);
      expect(result.sessionId).toBe(DOCS_EXAMPLE_SESSION);
    } finally {
      bin.remove();
    }
  });
});

describe('runAgent stops and reaps the process', () => {
  test('a timeout too long for a timer (`Infinity`, 2^31 ms and more) is no limit, not an instant timeout', async () => {
    for (const timeoutMs of [Number.POSITIVE_INFINITY, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
      const result = await runAgent(
        'hi',
        fakeRun(agent, { FAKE_AGENT_REPLAY: DOCS_EXAMPLE }, { timeoutMs }),
      ).collect();
      expect(result.success, String(timeoutMs)).toBe(true);
    }
  });

  test('a hung agent is killed after timeoutMs and the run ends with timeout', async () => {
    const vars = {
      FAKE_AGENT_REPLAY: DOCS_EXAMPLE,
      FAKE_AGENT_HANG: 'before',
      FAKE_AGENT_STDERR: 'waiting\n',
    };
    // Long enough for a loaded machine to start the agent and let it write stderr before the timeout.
    const run = runAgent('hi', fakeRun(agent, vars, { timeoutMs: 2000 }));
    const result = await run.collect();

    expectFailedEnding(result, 'timeout');
    expect(result.error?.message).toContain('waiting');
    expect(result.signal).toBe('SIGTERM');
    expect(isAlive(run.pid ?? -1)).toBe(false);
  });

  test('an agent that ignores SIGTERM is killed with SIGKILL after killGraceMs', async () => {
    const vars = { FAKE_AGENT_HANG: 'before', FAKE_AGENT_IGNORE_SIGTERM: '1' };
    // The timeout must leave the fake agent time to start and install its handler, even on a loaded machine.
    const run = runAgent('hi', fakeRun(agent, vars, { timeoutMs: 2000, killGraceMs: 300 }));
    const result = await run.collect();

    expectFailedEnding(result, 'timeout');
    expect(result.signal).toBe('SIGKILL');
    expect(isAlive(run.pid ?? -1)).toBe(false);
  });

  test('a killGraceMs that is no length of time (NaN, negative) is the default: the stop still ends', async () => {
    const vars = { FAKE_AGENT_HANG: 'before', FAKE_AGENT_IGNORE_SIGTERM: '1' };
    for (const killGraceMs of [Number.NaN, -1]) {
      const run = runAgent('hi', fakeRun(agent, vars, { timeoutMs: 2000, killGraceMs }));
      const result = await run.collect();
      expectFailedEnding(result, 'timeout');
      expect(result.signal).toBe('SIGKILL');
      expect(isAlive(run.pid ?? -1)).toBe(false);
    }
  });

  test('cancel() mid-stream ends the run with cancelled, after the events so far', async () => {
    const vars = { FAKE_AGENT_REPLAY: DOCS_EXAMPLE, FAKE_AGENT_CHUNK_BYTES: '64', FAKE_AGENT_DELAY_MS: '20' };
    const run = runAgent('hi', fakeRun(agent, vars, { keepEvents: true }));
    const seen: CanonicalEvent[] = [];
    for await (const event of run) {
      seen.push(event);
      if (event.type === 'user-message') run.cancel();
    }
    const result = await run.collect();

    expectFailedEnding(result, 'cancelled');
    expect(seen).toEqual(result.events);
    expect(typesOf(seen).slice(0, 2)).toEqual(['stream-start', 'user-message']);
    expect(result.signal).toBe('SIGTERM');
    expect(isAlive(run.pid ?? -1)).toBe(false);
  });

  test('cancel(SIGKILL) kills at once, even an agent that ignores SIGTERM', async () => {
    const vars = { FAKE_AGENT_HANG: 'before', FAKE_AGENT_IGNORE_SIGTERM: '1', FAKE_AGENT_NOISE: 'started\n' };
    const run = runAgent('hi', fakeRun(agent, vars, { killGraceMs: 60_000, keepEvents: true }));
    for await (const event of run) if (event.type === 'invalid-line') run.cancel('SIGKILL');
    const result = await run.collect();

    expectFailedEnding(result, 'cancelled');
    expect(result.signal).toBe('SIGKILL');
  });

  test('aborting the AbortSignal cancels the run and leaves no listener on it', async () => {
    const controller = new AbortController();
    const vars = { FAKE_AGENT_HANG: 'before', FAKE_AGENT_NOISE: 'started\n' };
    const run = runAgent('hi', fakeRun(agent, vars, { signal: controller.signal, keepEvents: true }));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    for await (const event of run) if (event.type === 'invalid-line') controller.abort();
    const result = await run.collect();

    expectFailedEnding(result, 'cancelled');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(isAlive(run.pid ?? -1)).toBe(false);
  });

  test('an already aborted signal starts nothing', async () => {
    const record = join(scratch.dir, 'aborted.json');
    const signal = AbortSignal.abort();
    const run = runAgent('hi', fakeRun(agent, { FAKE_AGENT_RECORD: record }, { signal }));
    const result = await run.collect();

    expectFailedEnding(result, 'cancelled');
    expect(run.pid).toBeUndefined();
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  test('leaving the loop early reaps the child before the loop exits, and leaves no listener behind', async () => {
    const controller = new AbortController();
    const before = { exit: process.listenerCount('exit'), sigint: process.listenerCount('SIGINT') };
    const vars = { FAKE_AGENT_REPLAY: DOCS_EXAMPLE, FAKE_AGENT_HANG: 'after', FAKE_AGENT_CHUNK_BYTES: '200' };
    const run = runAgent('hi', fakeRun(agent, vars, { signal: controller.signal }));
    let pid: number | undefined;
    for await (const event of run) {
      pid = run.pid;
      if (event.type === 'tool-call') break;
    }

    expect(pid).toBeTypeOf('number');
    expect(isAlive(pid ?? -1)).toBe(false);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(process.listenerCount('exit')).toBe(before.exit);
    expect(process.listenerCount('SIGINT')).toBe(before.sigint);
    expect((await run.collect()).error?.code).toBe('cancelled');
  });

  test("a run whose time runs out after its result came ends as the result says, the agent's failure with its sentence", async () => {
    /** The recording replayed by an agent that then hangs, in a run whose time runs out long before its grace. */
    const timedOutAfter = (recording: string) =>
      runAgent(
        'hi',
        fakeRun(
          agent,
          { FAKE_AGENT_REPLAY: recording, FAKE_AGENT_HANG: 'after' },
          { timeoutMs: 1500, exitGraceMs: 60_000 },
        ),
      ).collect();
    const succeeded = await timedOutAfter(DOCS_EXAMPLE);
    expect([succeeded.success, succeeded.error]).toEqual([true, null]);
    expect(succeeded.events).toEqual(normalizeFile(DOCS_EXAMPLE));
    const failed = await timedOutAfter(
      join(REPO_ROOT, 'corpus/official/failure-line-before-error-result.ndjson'),
    );
    expectFailedEnding(failed, 'agent-error');
    expect(failed.error?.message).toBe("RetriableError: [invalid_argument] unknown option '--system-prompt'");
    expect(failed.error?.failure).toBe('unknown-option');
  });

  test('an agent that does not exit after its result is stopped after exitGraceMs and still succeeds', async () => {
    const vars = { FAKE_AGENT_REPLAY: DOCS_EXAMPLE, FAKE_AGENT_HANG: 'after' };
    const run = runAgent('hi', fakeRun(agent, vars, { exitGraceMs: 200 }));
    const result = await run.collect();

    expect(result.success).toBe(true);
    expect(result.error).toBeNull();
    expect(result.signal).toBe('SIGTERM');
    expect(result.events).toEqual(normalizeFile(DOCS_EXAMPLE));
    expect(isAlive(run.pid ?? -1)).toBe(false);
  });
});
