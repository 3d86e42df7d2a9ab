import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  type CanonicalEvent,
  createNormalizer,
  type JsonObject,
  officialDialect,
  pythonWrapperDialect,
  reduceSessions,
  validateCanonicalEvent,
} from '@cursor-stream/core';
import { CORPUS_DIR, REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { describe, expect, test } from 'vitest';
import { dialectRecordings, normalizeChunks, normalizeText, ofType } from './support.ts';

const official = (name: string) => join(CORPUS_DIR, 'official', `${name}.ndjson`);

function sessionsOf(path: string) {
  const { events, normalizer } = normalizeChunks([readFileSync(path)]);
  return { events, sessions: reduceSessions(events, { dialect: normalizer.dialect }) };
}

describe('the failure sentence', () => {
  test("a failed result without text says the agent's output line before it, with that line", () => {
    const { events, sessions } = sessionsOf(official('failure-line-before-error-result'));
    const sentence = "RetriableError: [invalid_argument] unknown option '--system-prompt'";
    expect(sessions[0]?.failure).toEqual({ message: sentence, line: 3, code: 'unknown-option' });
    expect(ofType(events, 'error')[0]?.message).toBe(sentence);
    expect(ofType(events, 'invalid-line')[0]).toMatchObject({ code: 'non-json-output', message: sentence });
  });

  test('a run cut off without a result takes its last output line, not a banner before it', () => {
    const { sessions } = sessionsOf(official('failure-without-result'));
    expect(sessions[0]?.status).toBe('incomplete');
    expect(sessions[0]?.failure?.message).toMatch(/^ActionRequiredError: Named models unavailable/);
    expect(sessions[0]?.failure?.line).toBe(5);
  });

  test('a line before a run opens is not why it failed, unless nothing but its failed end follows', () => {
    const run = readFileSync(official('failure-without-result'), 'utf8').split('\n');
    // The same run cut off before the CLI could say why: only the sign-in prompt before it is plain output.
    const cut = `${run.slice(0, 4).join('\n')}\n`;
    const [session] = reduceSessions(normalizeText(cut));
    expect([session?.status, session?.failure]).toEqual(['incomplete', null]);
    // A failed `--output-format json` run: its error printed, then its result alone.
    const lone = `Error: Authentication required\n${ndjson([
      { type: 'result', subtype: 'error', is_error: true, session_id: 'c' },
    ])}`;
    const events = normalizeText(lone);
    expect(reduceSessions(events)[0]?.failure).toMatchObject({
      message: 'Error: Authentication required',
      line: 1,
    });
    expect(ofType(events, 'error')[0]?.message).toBe('Error: Authentication required');
  });

  test("a failed result's own text wins over output lines, and a successful session has no failure", () => {
    const records = [
      { type: 'system', subtype: 'init', session_id: 'a' },
      { type: 'result', subtype: 'success', is_error: false, result: 'fine', session_id: 'a' },
      { type: 'system', subtype: 'init', session_id: 'b' },
    ];
    const text = `${ndjson(records)}warning: slow network\n${ndjson([
      {
        type: 'result',
        subtype: 'error',
        is_error: true,
        result: 'You have hit your usage limit',
        session_id: 'b',
      },
    ])}`;
    const [first, second] = reduceSessions(normalizeText(text));
    expect(first?.failure).toBeNull();
    expect(second?.failure).toEqual({
      message: 'You have hit your usage limit',
      line: 5,
      code: 'usage-limit',
    });
  });
});

describe('records about the run', () => {
  test('reconnects, retries, compaction, notices and plan queries are typed events, never unknown', () => {
    const events = [
      ...sessionsOf(official('reconnect-retry-plan')).events,
      ...sessionsOf(official('compaction-and-notices')).events,
    ];
    expect(ofType(events, 'unknown')).toEqual([]);
    expect(ofType(events, 'status').map((event) => event.kind)).toEqual([
      'reconnecting',
      'retry-starting',
      'retry-resuming',
      'reconnected',
      'compacting',
      'compact-boundary',
      'background-shell-timeout',
      'task-notification',
    ]);
    const [request, response] = ofType(events, 'interaction');
    expect(request).toMatchObject({ phase: 'request', queryType: 'createPlanRequestQuery', queryId: 0 });
    expect(request?.plan).toMatch(/^# Plan: tidy notes/);
    expect(response).toMatchObject({
      phase: 'response',
      outcome: 'rejected',
      reason: expect.stringMatching(/^Questions skipped/),
    });
    for (const event of events) expect(validateCanonicalEvent(event)).toEqual([]);
  });

  test('they are counted per session and do not open sessions of their own', () => {
    const { sessions } = sessionsOf(official('reconnect-retry-plan'));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.counts).toMatchObject({ status: 4, interaction: 2 });
  });

  test('written back by each encoder, they read back as the same events', () => {
    const events = sessionsOf(official('compaction-and-notices')).events.filter(
      (event): event is CanonicalEvent => event.type === 'status',
    );
    for (const dialect of [officialDialect, pythonWrapperDialect]) {
      const again = normalizeText(ndjson(dialect.encode?.(events) ?? []));
      expect(again.map(({ loc: _loc, ...rest }) => rest)).toEqual(
        events.map(({ loc: _loc, ...rest }) => rest),
      );
    }
  });
});

describe('orphans and cuts', () => {
  test('an orphan completion keeps its arguments as input, in the event and the summary', () => {
    const { events, sessions } = sessionsOf(official('orphan-completion-with-args'));
    const [edit, shell] = ofType(events, 'tool-result');
    expect(edit?.input).toEqual({
      path: '/home/dev/demo/hello.py',
      streamContent: "# greeting\nprint('hello world')",
    });
    expect(shell && 'input' in shell).toBe(false);
    expect(sessions[0]?.toolCalls.map((call) => [call.orphan, call.input])).toEqual([
      [true, edit?.input],
      [true, null],
    ]);
  });

  test('a session cut by a new init gets its finish at the cut', () => {
    const { events } = sessionsOf(official('session-cut-by-init'));
    const [cut] = ofType(events, 'finish');
    expect(cut).toMatchObject({ finishReason: 'incomplete', pendingToolCallIds: ['call-read-0'] });
    expect(cut?.loc).toEqual(ofType(events, 'stream-start')[1]?.loc);
  });
});

describe('logs of other agents', () => {
  const foreign = [
    ['claude-code-stream-json.ndjson', 'claude-code', 'a Claude Code stream-json', 1],
    ['claude-code-stream-json-blocks.ndjson', 'claude-code', 'a Claude Code stream-json', 2],
    ['claude-code-session.jsonl', 'claude-code', 'a Claude Code session', 1],
    ['codex-exec-json.ndjson', 'codex', 'a Codex exec --json', 1],
    ['codex-session-rollout.jsonl', 'codex', 'a Codex session', 1],
    ['gemini-cli-stream-json.ndjson', 'gemini-cli', 'a Gemini CLI stream-json', 1],
    ['opencode-run-json.ndjson', 'opencode', 'an opencode run --format json', 1],
    ['copilot-cli-json.ndjson', 'copilot-cli', 'a GitHub Copilot CLI JSON', 1],
    ['qwen-code-stream-json.ndjson', 'qwen-code', 'a Qwen Code stream-json', 1],
    ['amp-stream-json.ndjson', 'amp', 'an Amp stream-json', 1],
    ['droid-exec-stream-json.ndjson', 'droid', 'a Factory droid exec', 2],
    ['kimi-wire.ndjson', 'kimi-cli', 'a Kimi CLI wire', 1],
    ['kimi-cli-stream-json.ndjson', 'kimi-cli', 'a Kimi CLI stream-json', 4],
    ['letta-code-stream-json.ndjson', 'letta-code', 'a Letta Code stream-json', 1],
    ['grok-chat-history.jsonl', 'grok', 'a Grok CLI chat history', 1],
    ['../captures/foreign/harness-cli-normalizer__pi.ndjson', 'pi', 'a pi --mode json', 1],
    ['../captures/foreign/harness-cli-normalizer__codex.ndjson', 'codex', 'a Codex exec --json', 1],
  ] as const;

  for (const [name, agent, format, line] of foreign) {
    test(`${basename(name)} is named as ${agent} at its first record only that agent writes`, () => {
      const text = readFileSync(join(CORPUS_DIR, 'foreign', name), 'utf8');
      const { normalizer } = normalizeChunks([text]);
      const offset =
        text
          .split('\n')
          .slice(0, line - 1)
          .join('\n').length + (line > 1 ? 1 : 0);
      expect(normalizer.foreign).toEqual({
        agent,
        message: `this looks like ${format} log, not cursor-agent`,
        loc: { line, offset },
      });
    });
  }

  test("another agent's ACP traffic is named by the name its answer to initialize gives", () => {
    const { normalizer } = normalizeChunks([readFileSync(join(CORPUS_DIR, 'acp', 'fx-wire-capture.ndjson'))]);
    expect(normalizer.foreign).toMatchObject({
      agent: 'acp-agent',
      message: 'this looks like an Agent Client Protocol (agent "fx") log, not cursor-agent',
      loc: { line: 2 },
    });
    const named = (name: string) =>
      normalizeChunks([
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion: 1, agentInfo: { name } } })}\n`,
      ]).normalizer.foreign?.agent;
    expect([named('Cursor Agent'), named('cursor-agent'), named('gemini')]).toEqual([
      undefined,
      undefined,
      'acp-agent',
    ]);
  });

  test("ACP's own methods, and its extensions', name no other protocol", () => {
    const methods = [
      'initialize',
      'authenticate',
      'session/prompt',
      'fs/read_text_file',
      '_cursor/x',
      'cursor/ask',
    ];
    for (const method of methods) {
      const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} })}\n`;
      expect(normalizeChunks([line]).normalizer.foreign).toBeUndefined();
    }
  });

  test.each([
    [
      "Claude Code's first stream-json result",
      {
        type: 'result',
        subtype: 'success',
        cost_usd: 0.01,
        is_error: false,
        duration_ms: 9,
        duration_api_ms: 8,
        num_turns: 1,
        result: 'hi',
        session_id: 's',
        total_cost: 0.01,
      },
      'a Claude Code stream-json',
    ],
    [
      'a Claude Code assistant line holding the API message whole',
      {
        type: 'assistant',
        message: {
          id: 'msg_01',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: 'hi' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
        session_id: 's',
      },
      'a Claude Code stream-json',
    ],
    [
      'the summary a resumed Claude Code transcript opens with',
      { type: 'summary', summary: 'Fix the failing test', leafUuid: '0b6f3a52-6c1e-4f0f-8d0a-9a6a0d4b7e11' },
      'a Claude Code session',
    ],
    [
      "Gemini CLI's answer to ACP's initialize, which names no agent",
      {
        jsonrpc: '2.0',
        id: 0,
        result: {
          protocolVersion: 1,
          authMethods: [
            { id: 'oauth-personal', name: 'Log in with Google', description: null },
            { id: 'gemini-api-key', name: 'Use Gemini API key', description: null },
          ],
          agentCapabilities: { loadSession: false },
        },
      },
      'an Agent Client Protocol (agent "Gemini CLI")',
    ],
    [
      "Qwen Code's answer to ACP's initialize, which names no agent",
      {
        jsonrpc: '2.0',
        id: 0,
        result: {
          protocolVersion: 1,
          authMethods: [
            {
              id: 'openai',
              name: 'Use OpenAI API key',
              _meta: { type: 'terminal', args: ['--auth-type=openai'] },
            },
          ],
        },
      },
      'an Agent Client Protocol (agent "Qwen Code")',
    ],
    [
      "opencode's ACP traffic without its answer to initialize: its session id names it",
      {
        jsonrpc: '2.0',
        method: 'session/update',
        params: {
          sessionId: 'ses_0b781c29cffeuHhwhwfFSxeRlQ',
          update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Created' } },
        },
      },
      'an Agent Client Protocol (agent "opencode")',
    ],
    [
      "opencode's answer to session/new as a client logs it, without the JSON-RPC envelope",
      { sessionId: 'ses_0b781c29cffeuHhwhwfFSxeRlQ', configOptions: [] },
      'an Agent Client Protocol (agent "opencode")',
    ],
    [
      'a Claude Code result counting its usage by model',
      {
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: 'hi',
        modelUsage: { 'claude-sonnet-4-6': {} },
      },
      'a Claude Code stream-json',
    ],
    [
      "an Anthropic API message whose id is not the API's own (a Claude Code fork)",
      {
        type: 'assistant',
        message: { id: 'redacted', type: 'message', role: 'assistant', content: [], stop_reason: null },
      },
      'a Claude Code stream-json',
    ],
    [
      "a droid tool call, cursor-agent's own record type in another shape",
      { type: 'tool_call', id: 'c1', toolId: 'LS', toolName: 'LS', parameters: { directory_path: '.' } },
      'a Factory droid exec',
    ],
    [
      "droid's JSON-RPC",
      {
        jsonrpc: '2.0',
        factoryApiVersion: '1.0.0',
        type: 'notification',
        method: 'droid.session_notification',
      },
      'a Factory droid exec',
    ],
    [
      "Trae CLI's stream event, holding its delta itself",
      { type: 'stream_event', session_id: 't-1', delta: { role: 'assistant', content: '2' } },
      'a Trae CLI stream-json',
    ],
    [
      'a JSON-RPC request of a method ACP does not have',
      { jsonrpc: '2.0', id: 1, method: 'run_task', params: {} },
      'a JSON-RPC (method "run_task")',
    ],
  ])("%s is named as another agent's", (_, record, format) => {
    expect(normalizeChunks([`${JSON.stringify(record)}\n`]).normalizer.foreign?.message).toBe(
      `this looks like ${format} log, not cursor-agent`,
    );
  });

  test("Anthropic's API stream, no agent's log, is named as no Cursor log rather than as pi's", () => {
    const stream = [
      {
        type: 'message_start',
        message: {
          id: 'msg_01',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 9, output_tokens: 1 },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 2 },
      },
      { type: 'message_stop' },
    ];
    expect(normalizeChunks([ndjson(stream)]).normalizer.foreign).toMatchObject({
      agent: 'unknown',
      loc: { line: 1, offset: 0 },
    });
  });

  test('Cursor’s own agent transcript is named as one, not as another agent’s log', () => {
    // The shapes public readers of `~/.cursor/projects/*/agent-transcripts` parse: messages, and each turn's end.
    const transcript = ndjson([
      {
        role: 'user',
        message: { content: [{ type: 'text', text: '<user_query>\nfix the test\n</user_query>' }] },
      },
      {
        role: 'assistant',
        message: {
          content: [
            { type: 'text', text: 'Running it.' },
            { type: 'tool_use', name: 'Shell', input: { command: 'npm test' } },
          ],
        },
      },
      { type: 'turn_ended', status: 'aborted', error: 'User aborted/interrupted manually.' },
    ]);
    const { normalizer, events } = normalizeChunks([transcript]);
    expect(normalizer.foreign).toMatchObject({ agent: 'unknown', loc: { line: 1, offset: 0 } });
    expect(normalizer.foreign?.message).toMatch(
      /^this looks like a Cursor agent transcript \(agent-transcripts/,
    );
    expect(normalizer.foreign?.message).not.toContain('not a Cursor log');
    expect(events.filter((event) => event.type === 'finish' && !event.isError)).toEqual([]);
  });

  test('a log no record of which a dialect explains is named as no Cursor log, at its first record', () => {
    const text = '{"kind":"identity"}\n{"type":"ping","at":1}\n';
    expect(normalizeChunks([text]).normalizer.foreign).toEqual({
      agent: 'unknown',
      message:
        'no record of this log is one cursor-agent or its wrappers write (its first record has no `type`): not a Cursor log',
      loc: { line: 1, offset: 0 },
    });
    const typed = normalizeChunks(['{"type":"ping","at":1}\n']).normalizer.foreign;
    expect(typed?.message).toContain('its first record is of type "ping"');
    // Known only once the log ends: a record a dialect explains may still come.
    const open = createNormalizer();
    open.feed(text);
    expect(open.foreign).toBeUndefined();
    // Records of types no dialect knows, in a log of Cursor's, leave it Cursor's; so does a dialect forced.
    const cursor = readFileSync(official('docs-example-zh'), 'utf8');
    expect(normalizeChunks([text, cursor]).normalizer.foreign).toBeUndefined();
    expect(normalizeChunks([text], { dialect: 'official' }).normalizer.foreign).toBeUndefined();
    // An empty log, or one of blank lines, is no log of anyone's.
    expect(normalizeChunks(['\n\n']).normalizer.foreign).toBeUndefined();
  });

  test('a mixed log is named at its first foreign record', () => {
    const cursor = readFileSync(official('docs-example-zh'), 'utf8');
    const codex = readFileSync(join(CORPUS_DIR, 'foreign', 'codex-exec-json.ndjson'), 'utf8');
    const { normalizer } = normalizeChunks([cursor, codex]);
    expect(normalizer.foreign?.agent).toBe('codex');
    expect(normalizer.foreign?.loc.line).toBe(cursor.split('\n').length);
  });

  // The ACP corpus holds other agents' traffic too (corpus/acp/SOURCES.md, "Other agents").
  const OTHER_AGENTS_ACP = new Set(['fx-wire-capture.ndjson', 'claude-code-repeated-tool-call.ndjson']);

  test("no recording of cursor-agent or its wrappers is taken for another agent's", () => {
    const paths = [...dialectRecordings(), ...REAL_CORPUS.ndjsonFiles()].filter(
      (path) => !OTHER_AGENTS_ACP.has(basename(path)),
    );
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) {
      expect(normalizeChunks([readFileSync(path)]).normalizer.foreign, basename(path)).toBeUndefined();
    }
  });
});

describe('python-wrapper logs', () => {
  const wrapped = (data: JsonObject, type = 'tool-call-started'): JsonObject => ({
    type,
    raw_type: String(data.type),
    subtype: data.subtype ?? null,
    data,
    text: null,
    session_id: 's',
    timestamp_ms: 1,
  });

  test('a wrapped CLI record is checked against the official schema, pointers under /data', () => {
    const data = {
      type: 'tool_call',
      subtype: 'started',
      call_id: 'c',
      tool_call: { shellToolCall: { args: { command: 'ls', hardTimeout: 1000, sparkle: true } } },
      session_id: 's',
    };
    expect(pythonWrapperDialect.validate(wrapped(data, 'unknown'))).toEqual([]);
    expect(pythonWrapperDialect.validate(wrapped(data, 'unknown'), { strict: true })).toEqual([
      {
        pointer: '/data/tool_call/shellToolCall/args/sparkle',
        message: 'is not a field the schema knows',
        keyword: 'unevaluatedProperties',
      },
    ]);
  });

  test('the EventType.NAME spelling of type is the same event', () => {
    const data = {
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
    };
    expect(pythonWrapperDialect.validate(wrapped(data, 'EventType.ASSISTANT_DELTA'))).toEqual([]);
    expect(pythonWrapperDialect.validate(wrapped(data, 'EventType.assistant'))).not.toEqual([]);
  });

  test("a start without its tool's name takes it from an earlier start of its own session only", () => {
    const init = { type: 'system', subtype: 'init', session_id: 's', model: 'm', workspace: '/w' };
    const start = (extra: JsonObject) => ({ type: 'tool-call-started', tool_call_id: 'call-0', ...extra });
    const records = [
      init,
      start({ tool_name: 'Shell', parameters: { command: 'ls' } }),
      init,
      start({ parameters: { path: 'a' } }),
      { type: 'tool-call-completed', tool_call_id: 'call-0', result: { success: true } },
    ];
    const events = normalizeText(ndjson(records));
    expect(ofType(events, 'tool-call').map((call) => call.providerToolName)).toEqual(['Shell', 'unknown']);
    expect(ofType(events, 'tool-result').map((result) => result.providerToolName)).toEqual(['unknown']);
  });
});

describe.skipIf(!REAL_CORPUS.present)(`the real recordings ${REAL_CORPUS.needs}`, () => {
  /** Recordings that are parts of runs or of another program's envelope, not clean logs (SOURCES.md). */
  const clean = REAL_CORPUS.ndjsonFiles().filter(
    (path) => !/excerpt|inspector-template/.test(basename(path)),
  );

  for (const path of clean) {
    test(`${basename(path)} passes strict validation and holds no unknown event`, () => {
      const records = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as JsonObject);
      expect(records.flatMap((record) => officialDialect.validate(record, { strict: true }))).toEqual([]);
      const events = normalizeText(readFileSync(path));
      expect(ofType(events, 'unknown')).toEqual([]);
      expect(ofType(events, 'invalid-line')).toEqual([]);
    });
  }
});
