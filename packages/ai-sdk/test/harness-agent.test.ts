/**
 * The harness driven by the AI SDK's own `HarnessAgent`, over the fake agent in a local sandbox session: what a turn
 * streams is what `summary` makes of the same recording, its usage is the log's, a failed turn ends with the agent's
 * own sentence, a stopped session resumes its chat, and an aborted turn leaves no process behind.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessCapabilityUnsupportedError, type HarnessV1StartOptions } from '@ai-sdk/harness';
import { getHarnessErrorMessage, HarnessAgent } from '@ai-sdk/harness/agent';
import { type CursorHarnessOptions, createCursorHarness } from '@cursor-stream/ai-sdk/harness';
import type { CanonicalEvent } from '@cursor-stream/core';
import { afterAll, describe, expect, test } from 'vitest';
import { createLocalSandboxSession } from '../examples/local-sandbox-session.ts';
import {
  calledSoon,
  FAKE_CHAT_ID,
  goneSoon,
  harnessScratch,
  readCall,
  reap,
  recordingParts,
  resultUsageOf,
  schemaProblems,
} from './harness-support.ts';
import { CORPUS_DIR, readRecording } from './support.ts';

const PARALLEL = join(CORPUS_DIR, 'official/parallel-tools-out-of-order.ndjson');
const PLAN_AND_RETRY = join(CORPUS_DIR, 'official/reconnect-retry-plan.ndjson');
const FAILED_RESULT = join(CORPUS_DIR, 'official/failure-line-before-error-result.ndjson');

const scratch = harnessScratch();
afterAll(() => scratch.remove());

let records = 0;
/** A fresh file for the fake agent to record its start in. */
function recordFile(): string {
  records += 1;
  return join(scratch.dir, `call-${records}.json`);
}

/** A `HarnessAgent` over the harness on the fake agent, run with `vars`, keeping every part the harness emits. */
function agentWith(vars: Record<string, string>, options: CursorHarnessOptions = {}) {
  const { harness, parts } = recordingParts(
    createCursorHarness({
      binary: scratch.agent,
      ...options,
      // The recording's session ids become the chat's, as they would be for a chat the agent resumes.
      env: { FAKE_AGENT_KNOWN_SESSIONS: FAKE_CHAT_ID, TMPDIR: scratch.tmp, ...vars, ...options.env },
    }),
  );
  return { agent: new HarnessAgent({ harness }), parts };
}

const sandboxSession = createLocalSandboxSession(scratch.sandbox);

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of stream) all.push(item);
  return all;
}

type ToolOutcome = { toolCallId: string; isError: boolean; output: unknown };

/** What `summary` and the normalizer say of a recording's tool calls, by id. */
function expectedTools(events: readonly CanonicalEvent[]): ToolOutcome[] {
  const [session] = readRecording(PARALLEL).sessions;
  return (session?.toolCalls ?? [])
    .map(({ toolCallId, status }) => {
      const result = events.find(
        (event): event is Extract<CanonicalEvent, { type: 'tool-result' }> =>
          event.type === 'tool-result' && event.toolCallId === toolCallId,
      );
      return { toolCallId, isError: status !== 'success', output: result?.output };
    })
    .sort((a, b) => a.toolCallId.localeCompare(b.toolCallId));
}

/** The AI SDK's view of a log's `result.usage`: input split into no-cache, cache read and cache write. */
function expectedUsage(path: string) {
  const usage = resultUsageOf(path);
  const input = (usage.inputTokens ?? 0) + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
  return {
    inputTokens: input,
    inputTokenDetails: {
      noCacheTokens: usage.inputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
    },
    outputTokens: usage.outputTokens,
    totalTokens: input + (usage.outputTokens ?? 0),
  };
}

describe('HarnessAgent with createCursorHarness', () => {
  test('streams a turn with parallel tools as summary sees it, with the usage of the log, every part valid', async () => {
    const record = recordFile();
    const { agent, parts } = agentWith({ FAKE_AGENT_REPLAY: PARALLEL, FAKE_AGENT_RECORD: record });
    const session = await agent.createSession({ sandboxSession });
    const result = await agent.stream({ session, prompt: 'Check the build' });
    const stream = await collect(result.fullStream);

    expect(schemaProblems(parts)).toEqual([]);
    const { events, sessions } = readRecording(PARALLEL);
    const text = stream.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');
    expect(text).toBe(sessions[0]?.text);
    const tools: ToolOutcome[] = stream
      .flatMap((part) => {
        if (part.type === 'tool-result')
          return [{ toolCallId: part.toolCallId, isError: false, output: part.output }];
        if (part.type === 'tool-error')
          return [{ toolCallId: part.toolCallId, isError: true, output: part.error }];
        return [];
      })
      .sort((a, b) => a.toolCallId.localeCompare(b.toolCallId));
    expect(tools).toEqual(expectedTools(events));
    expect(await result.totalUsage).toMatchObject(expectedUsage(PARALLEL));

    // Cursor's tools under their builtin keys, the MCP tool as a dynamic one; all run by the agent.
    const calls = stream.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
    expect(calls.map((call) => call.toolName)).toEqual([
      'bash',
      'bash',
      'read',
      'read',
      'edit',
      'docs-search',
    ]);
    expect(calls.every((call) => call.providerExecuted === true && call.invalid !== true)).toBe(true);
    expect(calls.map((call) => call.dynamic === true)).toEqual([false, false, false, false, false, true]);
    expect(parts.flatMap((part) => (part.type === 'tool-call' ? [part.nativeName] : []))).toEqual([
      'shellToolCall',
      'shellToolCall',
      'readToolCall',
      'readToolCall',
      'editToolCall',
      'mcpToolCall',
    ]);
    // One step per model call: the first issued four tools, the second wrote the rest.
    expect((await result.steps).map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(parts.filter((part) => part.type === 'finish-step')).toHaveLength(2);

    const call = readCall(record);
    expect(call.argv).toEqual(expect.arrayContaining(['--print', '--output-format', 'stream-json']));
    expect(call.argv.slice(call.argv.indexOf('--resume'), call.argv.indexOf('--resume') + 2)).toEqual([
      '--resume',
      FAKE_CHAT_ID,
    ]);
    expect(call.stdin).toBe('Check the build');
    // The session's working directory, which HarnessAgent makes in the sandbox's own: `<harnessId>-<sessionId>`.
    expect(call.cwd).toBe(join(scratch.sandbox, `cursor-stream-${session.sessionId}`));
    expect(await result.providerMetadata).toEqual({
      'cursor-stream': expect.objectContaining({
        chatId: FAKE_CHAT_ID,
        durationMs: 4600,
        durationApiMs: 4450,
      }),
    });
    await session.stop();
  });

  test('a failed turn ends with one error, in the agent’s own sentence and with its code', async () => {
    const { agent, parts } = agentWith({ FAKE_AGENT_REPLAY: FAILED_RESULT });
    const session = await agent.createSession({ sandboxSession });
    const result = await agent.stream({ session, prompt: 'Summarize the changelog.' });
    const stream = await collect(result.fullStream);

    expect(schemaProblems(parts)).toEqual([]);
    const errors = stream.flatMap((part) => (part.type === 'error' ? [part.error] : []));
    expect(errors).toHaveLength(1);
    expect(getHarnessErrorMessage(errors[0])).toBe(
      "RetriableError: [invalid_argument] unknown option '--system-prompt'",
    );
    expect(errors[0]).toMatchObject({ code: 'agent-error' });
    expect(parts.filter((part) => part.type === 'error')).toHaveLength(1);
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
    await expect(result.finishReason).rejects.toThrow('unknown option');
    await session.stop();
  });

  test.each([
    {
      recording: join(CORPUS_DIR, 'official/failure-without-result.ndjson'),
      code: 'no-result',
      // The sentence is the agent's last line of output, as runAgent quotes it (an excerpt of 120 characters).
      message: expect.stringMatching(
        /^\/.*\/cursor-agent exited without a result: ActionRequiredError: Named models unavailable Free plans/,
      ),
    },
  ])('a turn whose agent exits without a result fails with $code', async ({ recording, code, message }) => {
    const { agent, parts } = agentWith({ FAKE_AGENT_REPLAY: recording });
    const session = await agent.createSession({ sandboxSession });
    const stream = await collect((await agent.stream({ session, prompt: 'hi' })).fullStream);
    const errors = stream.flatMap((part) => (part.type === 'error' ? [part.error] : []));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code, message });
    expect(schemaProblems(parts)).toEqual([]);
    // What the agent wrote before it failed still reached the caller, its step closed before the error.
    expect(stream.some((part) => part.type === 'text-delta' && part.text === 'Starting.')).toBe(true);
    expect(parts.slice(-2).map((part) => part.type)).toEqual(['finish-step', 'error']);
    await session.stop();
  });

  test('a process that exits with an error on stderr fails the start with that line', async () => {
    const { agent } = agentWith({
      FAKE_AGENT_EXIT: '1',
      FAKE_AGENT_STDERR: 'Error: Workspace Trust Required\n',
    });
    const session = await agent.createSession({ sandboxSession }).catch((error: unknown) => error);
    // create-chat fails the same way: the session does not start, with the command's sentence and code.
    expect(session).toMatchObject({
      code: 'exit-nonzero',
      message: `${scratch.agent} exited with code 1: Error: Workspace Trust Required`,
    });
  });

  test('an agent that is not there fails the start as spawn-failed', async () => {
    const { agent } = agentWith({}, { binary: join(scratch.dir, 'no-such-agent') });
    await expect(agent.createSession({ sandboxSession })).rejects.toMatchObject({ code: 'spawn-failed' });
  });

  test('the next turn and a stopped session resume the same chat', async () => {
    const tmp = mkdtempSync(join(scratch.dir, 'tmp-'));
    const first = recordFile();
    const one = agentWith({ FAKE_AGENT_REPLAY: PARALLEL, FAKE_AGENT_RECORD: first, TMPDIR: tmp });
    const session = await one.agent.createSession({ sandboxSession });
    await one.agent.generate({ session, prompt: 'first' });
    const again = await one.agent.generate({ session, prompt: 'second' });
    expect(readCall(first).argv).toEqual(expect.arrayContaining(['--resume', FAKE_CHAT_ID]));
    expect(readCall(first).stdin).toBe('second');
    expect(again.providerMetadata).toMatchObject({ 'cursor-stream': { chatId: FAKE_CHAT_ID } });
    const state = await session.stop();
    expect(state).toEqual({
      type: 'resume-session',
      harnessId: 'cursor-stream',
      specificationVersion: 'harness-v1',
      data: { chatId: FAKE_CHAT_ID },
    });

    // Another process, another recording: a create-chat now would print another id, and none is run.
    const second = recordFile();
    const two = agentWith({
      FAKE_AGENT_REPLAY: PLAN_AND_RETRY,
      FAKE_AGENT_RECORD: second,
      FAKE_AGENT_CHAT_ID: 'other',
      TMPDIR: tmp,
    });
    const resumed = await two.agent.createSession({
      sandboxSession,
      sessionId: session.sessionId,
      resumeFrom: state,
    });
    expect(resumed.isResume).toBe(true);
    const result = await two.agent.stream({ session: resumed, prompt: 'third' });
    const stream = await collect(result.fullStream);
    expect(schemaProblems(two.parts)).toEqual([]);
    expect(readCall(second).argv).toEqual(expect.arrayContaining(['--resume', FAKE_CHAT_ID]));
    const text = stream.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');
    expect(text).toBe(readRecording(PLAN_AND_RETRY).sessions[0]?.text);
    expect(await result.totalUsage).toMatchObject(expectedUsage(PLAN_AND_RETRY));
    expect(await result.providerMetadata).toMatchObject({ 'cursor-stream': { chatId: FAKE_CHAT_ID } });
    await resumed.stop();
    // The prompts went through files in a private folder, removed with the session.
    expect(readdirSync(tmp)).toEqual([]);
  });

  test('an agent that does not exit after its result is stopped, and the turn stands', async () => {
    const record = recordFile();
    const vars = { FAKE_AGENT_REPLAY: PARALLEL, FAKE_AGENT_HANG: 'after', FAKE_AGENT_RECORD: record };
    const { agent } = agentWith(vars, { exitGraceMs: 100 });
    const session = await agent.createSession({ sandboxSession });
    const result = await agent.stream({ session, prompt: 'Check the build' });
    const stream = await collect(result.fullStream);
    const { pid } = readCall(record);
    try {
      expect(stream.at(-1)?.type).toBe('finish');
      expect(await result.finishReason).toBe('stop');
      expect(await goneSoon(pid)).toBe(true);
    } finally {
      reap(pid);
    }
    await session.stop();
  });

  test('aborting a turn ends it at once and leaves no agent process behind', async () => {
    const record = recordFile();
    const recording = join(scratch.dir, 'no-result.ndjson');
    const chat = { session_id: FAKE_CHAT_ID };
    writeFileSync(
      recording,
      [
        { type: 'system', subtype: 'init', model: 'Auto', cwd: '/w', ...chat },
        {
          type: 'assistant',
          message: { role: 'assistant', content: [{ type: 'text', text: 'Working' }] },
          ...chat,
        },
      ]
        .map((record) => `${JSON.stringify(record)}\n`)
        .join(''),
    );
    // The agent says a word, starts a tool's process and then works on (it never ends by itself).
    const vars = { FAKE_AGENT_REPLAY: recording, FAKE_AGENT_HANG: 'after', FAKE_AGENT_GRANDCHILD: '1' };
    const { agent, parts } = agentWith({ ...vars, FAKE_AGENT_RECORD: record });
    const session = await agent.createSession({ sandboxSession });
    const abort = new AbortController();
    const result = await agent.stream({ session, prompt: 'work', abortSignal: abort.signal });
    const seen: string[] = [];
    for await (const part of result.fullStream) {
      seen.push(part.type);
      if (part.type === 'text-delta') abort.abort(new Error('stopped by the user'));
    }
    const { pid, grandchildPid } = await calledSoon(record);
    try {
      expect(seen.at(-1)).toBe('abort');
      await expect(result.finishReason).rejects.toThrow('stopped by the user');
      expect(await goneSoon(pid)).toBe(true);
      expect(grandchildPid).not.toBeNull();
      expect(await goneSoon(grandchildPid ?? -1)).toBe(true);
      expect(schemaProblems(parts)).toEqual([]);
    } finally {
      reap(pid);
      reap(grandchildPid);
    }
    await session.stop();
  });
});

describe('what print mode cannot do', () => {
  /** Starts a session of the harness itself, as HarnessAgent would, with `over` in the start options. */
  async function start(over: Partial<HarnessV1StartOptions> = {}) {
    const harness = createCursorHarness({ binary: scratch.agent });
    const sessionWorkDir = mkdtempSync(join(scratch.sandbox, 'direct-'));
    return harness.doStart({ sessionId: 'direct', sandboxSession, sessionWorkDir, ...over });
  }
  const turn = { prompt: 'hi', skills: [], tools: [], emit: () => {} };
  const refused = expect.toSatisfy((error: unknown) => HarnessCapabilityUnsupportedError.isInstance(error));

  test('HarnessAgent refuses approvals up front: the harness declares none', () => {
    const harness = createCursorHarness({ binary: scratch.agent });
    let thrown: unknown;
    try {
      new HarnessAgent({ harness, permissionMode: 'allow-reads' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toEqual(refused);
    expect(harness).toMatchObject({
      supportsBuiltinToolApprovals: false,
      supportsBuiltinToolFiltering: false,
    });
  });

  test('is refused with HarnessCapabilityUnsupportedError, not faked', async () => {
    await expect(start({ builtinToolFiltering: { mode: 'allow', toolNames: ['read'] } })).rejects.toEqual(
      refused,
    );
    await expect(start({ permissionMode: 'allow-edits' })).rejects.toEqual(refused);
    const session = await start();
    await expect(session.doPromptTurn({ ...turn, tools: [{ name: 'lookup' }] })).rejects.toEqual(refused);
    await expect(session.doPromptTurn({ ...turn, responseFormat: { type: 'json' } })).rejects.toEqual(
      refused,
    );
    await expect(session.doCompact()).rejects.toEqual(refused);
    await session.doDestroy();
  });
});
