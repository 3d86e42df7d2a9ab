import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { acpDialect, type CanonicalEvent, reduceSessions } from '@cursor-stream/core';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { fc, test } from '@fast-check/vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect } from 'vitest';
import { MAX_REMEMBERED_CALLS, MAX_REMEMBERED_ID_CHARS } from '../src/open-calls.ts';
import {
  assistantText,
  normalizeChunks as normalizeChunksOf,
  normalizeText,
  ofType,
  withoutLoc,
} from './support.ts';

const ACP_DIR = join(CORPUS_DIR, 'acp');
const require = createRequire(import.meta.url);

/** The protocol's own JSON Schema, as `@agentclientprotocol/sdk` publishes it. */
const acpSchema = JSON.parse(
  readFileSync(require.resolve('@agentclientprotocol/sdk/schema/v1/schema.json'), 'utf8'),
) as Record<string, unknown>;
const ajv = new Ajv2020({ strict: false, logger: false });
for (const format of ['double', 'int64', 'int32', 'uint16', 'uint32', 'uint64']) ajv.addFormat(format, true);
ajv.addSchema(acpSchema, 'acp');
const isAcpMessage = ajv.getSchema('acp');
const isSessionUpdate = ajv.getSchema('acp#/$defs/SessionUpdate');
const isSessionNotification = ajv.getSchema('acp#/$defs/SessionNotification');

function lines(name: string): Record<string, unknown>[] {
  return readFileSync(join(ACP_DIR, name), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The protocol message a logged line holds, or `undefined` for a recorder's own note. */
function messageOf(line: Record<string, unknown>): Record<string, unknown> | undefined {
  if (line.dir === 'summary') return undefined;
  return (line.msg ?? line.message ?? line.frame ?? line) as Record<string, unknown>;
}

function read(name: string): CanonicalEvent[] {
  return normalizeText(readFileSync(join(ACP_DIR, name)));
}

const recordings = readdirSync(ACP_DIR).filter((name) => name.endsWith('.ndjson'));

describe('the acp dialect against the protocol schema', () => {
  test('every message of the recordings is valid ACP, and valid for the dialect', () => {
    expect(recordings.length).toBeGreaterThan(0);
    for (const name of recordings) {
      for (const line of lines(name)) {
        expect(acpDialect.validate(line)).toEqual([]);
        const message = messageOf(line);
        if (message === undefined) continue;
        const check = typeof message.sessionUpdate === 'string' ? isSessionUpdate : isAcpMessage;
        expect(check?.(message), `${name}: ${JSON.stringify(message).slice(0, 200)}`).toBe(true);
        if (message.method === 'session/update') expect(isSessionNotification?.(message.params)).toBe(true);
      }
    }
    // Hundreds of messages through a schema of some two hundred definitions: slow on a busy machine, never wrong.
  }, 600_000);
});

describe('a Cursor prompt turn over ACP', () => {
  test('reads as one session: its prompt, the text the chunks add up to, each call with its end, the stop reason', () => {
    const events = read('cursor-agent-tools.ndjson');
    const chunks = lines('cursor-agent-tools.ndjson')
      .map(
        (line) =>
          messageOf(line)?.params as { update?: { sessionUpdate?: string; content?: { text?: string } } },
      )
      .filter((params) => params?.update?.sessionUpdate === 'agent_message_chunk')
      .map((params) => params.update?.content?.text ?? '');
    const [session, ...rest] = reduceSessions(events);
    expect(rest).toEqual([]);
    expect(session?.text).toBe(chunks.join(''));
    expect(session?.status).toBe('success');
    expect(session?.model).toBe('composer-2.5[fast=true]');
    expect(session?.toolCalls.map((call) => [call.toolName, call.status])).toEqual([
      ['read', 'success'],
      ['grep', 'success'],
      ['shell', 'success'],
      ['edit', 'success'],
      ['edit', 'success'],
    ]);
    expect(ofType(events, 'finish')[0]?.stopReason).toBe('end_turn');
    expect(ofType(events, 'user-message')).toHaveLength(1);
  });

  test('a call whose arguments grow after its announcement is emitted with the arguments it ran with', () => {
    const [grep] = ofType(read('cursor-agent-tools.ndjson'), 'tool-call').filter(
      (c) => c.toolName === 'grep',
    );
    expect(grep?.input).not.toEqual({});
    expect(grep).toMatchObject({ kind: 'search', providerToolName: 'search' });
  });

  test('a call announced in a log cut off before its update is still a call, left pending', () => {
    const announced = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: {
        sessionId: 's1',
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: 't1',
          title: 'Run ls',
          kind: 'execute',
          status: 'pending',
          rawInput: { command: 'ls' },
        },
      },
    };
    const events = normalizeText(ndjson([announced]));
    expect(ofType(events, 'tool-call')).toEqual([
      expect.objectContaining({
        toolCallId: 't1',
        toolName: 'shell',
        input: { command: 'ls' },
        sessionId: 's1',
      }),
    ]);
    expect(ofType(events, 'finish').map((finish) => finish.pendingToolCallIds)).toEqual([['t1']]);
  });

  test('a cancelled turn fails with the stop reason, and says so', () => {
    const events = read('cursor-cancel.ndjson');
    const [session] = reduceSessions(events);
    expect(session?.status).toBe('error');
    expect(ofType(events, 'finish')[0]?.stopReason).toBe('cancelled');
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'cancelled' });
  });

  test('a call the client refused ends rejected, though Cursor reports it completed', () => {
    const events = read('cursor-permission-reject.excerpt.ndjson');
    const interactions = ofType(events, 'interaction');
    expect(interactions.map((event) => [event.phase, event.queryType, event.outcome])).toEqual([
      ['request', 'permission', undefined],
      ['response', 'permission', 'reject-once'],
    ]);
    const rejected = ofType(events, 'tool-result').find((result) => result.status === 'rejected');
    expect(rejected?.toolCallId).toBe(interactions[0]?.toolCallId);
    expect(rejected?.isError).toBe(true);
  });

  test('todos and plans arrive as plan events, whichever way Cursor sends them', () => {
    const todos = ofType(read('cursor-update-todos.excerpt.ndjson'), 'plan');
    expect(todos.map((plan) => plan.source)).toEqual(['cursor/update_todos']);
    expect(todos[0]?.entries.map((entry) => entry.status)).toEqual(['in_progress', 'pending', 'pending']);
    const plans = ofType(read('cursor-findings-quotes.ndjson'), 'plan');
    expect(plans.map((plan) => plan.source)).toEqual(['cursor/create_plan', 'plan']);
    expect(plans[0]?.markdown).toContain('# Rename a function');
  });

  test('usage the agent reports is kept per turn, unknown counts null, with the context it fills', () => {
    const events = read('fx-wire-capture.ndjson');
    const tokens = ofType(events, 'usage').flatMap((usage) =>
      usage.tokens === undefined ? [] : [usage.tokens],
    );
    expect(tokens[0]).toEqual({
      inputTokens: 14760,
      outputTokens: 23,
      cacheReadTokens: null,
      cacheWriteTokens: null,
      reasoningTokens: 0,
      totalTokens: null,
    });
    const context = ofType(events, 'usage').find((usage) => usage.context !== undefined);
    expect(context?.context).toEqual({ used: 14783, size: 262144 });
    expect(context?.cost).toEqual({ amount: 0, currency: 'USD' });
    // The counts the agent gave are the turn's total too; the ones it did not give stay out of it.
    expect(reduceSessions(events)[0]?.usage).toEqual({ inputTokens: 14760, outputTokens: 23 });
  });
});

/** A JSON-RPC log of the messages given, one per line. */
function traffic(...messages: object[]): string {
  return messages.map((message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`).join('');
}

function prompt(id: number, text: string): object {
  return { id, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text', text }] } };
}

function update(update: object): object {
  return { method: 'session/update', params: { sessionId: 's', update } };
}

function chunk(text: string): object {
  return update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
}

describe('what the protocol allows, the dialect allows', () => {
  test('a chunk with a null message id and a notification with null `_meta` are valid, as the official schema says', () => {
    const line = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: {
        sessionId: 's',
        _meta: null,
        update: {
          sessionUpdate: 'agent_message_chunk',
          messageId: null,
          content: { type: 'text', text: 'hi' },
        },
      },
    };
    expect(isAcpMessage?.(line)).toBe(true);
    expect(acpDialect.validate(line)).toEqual([]);
  });

  test.each([
    [
      'a call status outside the protocol',
      { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'done' },
    ],
    ['a call without a title', { sessionUpdate: 'tool_call', toolCallId: 't', status: 'pending' }],
    ['a call update without its id', { sessionUpdate: 'tool_call_update', status: 'completed' }],
    ['a usage update without the context size', { sessionUpdate: 'usage_update', used: 10 }],
    [
      'a plan entry without a priority',
      { sessionUpdate: 'plan', entries: [{ content: 'x', status: 'pending' }] },
    ],
  ])('%s, which the official schema refuses, is a violation', (_, update) => {
    expect(isSessionUpdate?.(update)).toBe(false);
    expect(acpDialect.validate(update)).not.toEqual([]);
  });
});

describe('turns as the protocol bounds them', () => {
  test('an update outside the session history (a notice, a compaction, a kind from a later version) opens no turn', () => {
    const events = normalizeText(
      traffic(
        prompt(1, 'first'),
        chunk('one'),
        { id: 1, result: { stopReason: 'end_turn' } },
        update({ sessionUpdate: 'notice', severity: 'info', title: 'Context compacted' }),
        update({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' }),
        update({ sessionUpdate: 'a_kind_from_a_later_version', value: 1 }),
        prompt(2, 'second'),
        chunk('two'),
        { id: 2, result: { stopReason: 'end_turn' } },
      ),
    );
    const sessions = reduceSessions(events);
    expect(sessions.map((session) => [session.status, session.text])).toEqual([
      ['success', 'one'],
      ['success', 'two'],
    ]);
    expect(ofType(events, 'status').map((event) => event.status)).toEqual(
      expect.arrayContaining(['notice', 'compaction_update']),
    );
    expect(ofType(events, 'unknown').map((event) => event.rawType)).toEqual(['a_kind_from_a_later_version']);
  });

  test('a prompt sent after a cancel ends the cancelled turn; each answer ends its own turn, by request id', () => {
    const events = normalizeText(
      traffic(
        prompt(3, 'write a poem'),
        chunk('Roses'),
        { method: 'session/cancel', params: { sessionId: 's' } },
        prompt(4, 'no, write a haiku'),
        { id: 3, result: { stopReason: 'cancelled' } },
        chunk('Old pond'),
        { id: 4, result: { stopReason: 'end_turn' } },
      ),
    );
    const finishes = ofType(events, 'finish');
    expect(finishes.map((finish) => [finish.finishReason, finish.stopReason])).toEqual([
      ['error', 'cancelled'],
      ['stop', 'end_turn'],
    ]);
    expect(reduceSessions(events).map((session) => session.text)).toEqual(['Roses', 'Old pond']);
  });

  test('a prompt sent into an open turn waits one message for that turn’s answer: it ends as the agent says, else superseded', () => {
    const answeredAtOnce = normalizeText(
      traffic(
        prompt(3, 'make a plan'),
        chunk('Plan'),
        prompt(4, 'read a file'),
        { id: 3, result: { stopReason: 'cancelled' } },
        chunk('done'),
        { id: 4, result: { stopReason: 'end_turn' } },
      ),
    );
    expect(
      ofType(answeredAtOnce, 'finish').map((finish) => [finish.finishReason, finish.stopReason]),
    ).toEqual([
      ['error', 'cancelled'],
      ['stop', 'end_turn'],
    ]);
    expect(ofType(answeredAtOnce, 'error')).toMatchObject([{ code: 'cancelled', loc: { line: 4 } }]);
    // The new turn starts where its prompt is, after the old turn's end.
    expect(answeredAtOnce.map((event) => [event.type, event.loc?.line])).toEqual([
      ['stream-start', 1],
      ['user-message', 1],
      ['text-delta', 2],
      ['error', 4],
      ['finish', 4],
      ['stream-start', 3],
      ['user-message', 3],
      ['text-delta', 5],
      ['finish', 6],
    ]);
    const neverAnswered = normalizeText(
      traffic(prompt(3, 'make a plan'), chunk('Plan'), prompt(4, 'read'), chunk('done')),
    );
    expect(ofType(neverAnswered, 'finish')[0]?.stopReason).toBe('superseded');
    expect(reduceSessions(neverAnswered).map((session) => [session.text, session.status])).toEqual([
      ['Plan', 'error'],
      ['done', 'incomplete'],
    ]);
    // A prompt held at the log's end still opens its turn.
    const lastLine = normalizeText(traffic(prompt(3, 'make a plan'), chunk('Plan'), prompt(4, 'read')));
    expect(ofType(lastLine, 'user-message').map((event) => event.text)).toEqual(['make a plan', 'read']);
  });

  test('a turn that announces more calls than are kept open gives every one, and a call of an id too long to keep', () => {
    const announced = Array.from({ length: MAX_REMEMBERED_CALLS + 76 }, (_, index) =>
      update({
        sessionUpdate: 'tool_call',
        toolCallId: `t${index}`,
        title: 'Read',
        kind: 'read',
        status: 'pending',
      }),
    );
    const longId = 'x'.repeat(MAX_REMEMBERED_ID_CHARS + 1);
    const events = normalizeText(
      traffic(
        prompt(1, 'read them all'),
        ...announced,
        update({
          sessionUpdate: 'tool_call',
          toolCallId: longId,
          title: 'Read',
          kind: 'read',
          status: 'pending',
        }),
        { id: 1, result: { stopReason: 'end_turn' } },
      ),
    );
    const ids = ofType(events, 'tool-call').map((event) => event.toolCallId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual([...announced.map((_, index) => `t${index}`), longId].sort());
  });

  test('a call’s output sent with an update before its last is its output: an update sends only what changed', () => {
    const output = [{ type: 'content', content: { type: 'text', text: 'a.txt' } }];
    const events = normalizeText(
      traffic(
        prompt(1, 'list'),
        update({
          sessionUpdate: 'tool_call',
          toolCallId: 't1',
          title: 'ls',
          kind: 'execute',
          status: 'pending',
        }),
        update({
          sessionUpdate: 'tool_call_update',
          toolCallId: 't1',
          status: 'in_progress',
          content: output,
        }),
        update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' }),
        { id: 1, result: { stopReason: 'end_turn' } },
      ),
    );
    expect(ofType(events, 'tool-result').map((result) => [result.status, result.output])).toEqual([
      ['success', output],
    ]);
  });

  test('an update of a call after its end adds no second call', () => {
    const events = normalizeText(
      traffic(
        prompt(1, 'list'),
        update({
          sessionUpdate: 'tool_call',
          toolCallId: 't9',
          title: 'ls',
          kind: 'execute',
          status: 'pending',
        }),
        update({ sessionUpdate: 'tool_call_update', toolCallId: 't9', status: 'completed' }),
        update({
          sessionUpdate: 'tool_call_update',
          toolCallId: 't9',
          _meta: { claudeCode: { toolResponse: {} } },
        }),
        { id: 1, result: { stopReason: 'end_turn' } },
      ),
    );
    expect(ofType(events, 'tool-call').map((call) => [call.toolCallId, call.toolName])).toEqual([
      ['t9', 'shell'],
    ]);
    expect(ofType(events, 'tool-result')).toHaveLength(1);
  });

  test("a call of kind `other` is named by Cursor's `_toolName`, as the CLI's records name the tool", () => {
    // Cursor's subagent launch over ACP: kind `other`, a title that is the task's description, the tool's name only
    // in `rawInput`, and the launch's own accounting as its output.
    const events = normalizeText(
      traffic(
        prompt(1, 'delegate'),
        update({
          sessionUpdate: 'tool_call',
          toolCallId: 'tool_2494c23d',
          title: 'Task: Subagent task',
          kind: 'other',
          status: 'pending',
          rawInput: { _toolName: 'task' },
        }),
        update({
          sessionUpdate: 'tool_call_update',
          toolCallId: 'tool_2494c23d',
          title: 'Task: Summarize src JS files',
          rawInput: { _toolName: 'task', description: 'Summarize src JS files', prompt: 'go' },
        }),
        update({
          sessionUpdate: 'tool_call_update',
          toolCallId: 'tool_2494c23d',
          status: 'completed',
          rawOutput: { durationMs: 10, isBackground: false },
        }),
        update({
          sessionUpdate: 'tool_call',
          toolCallId: 'tool_other',
          title: 'Think',
          kind: 'other',
          status: 'completed',
        }),
        { id: 1, result: { stopReason: 'end_turn' } },
      ),
    );
    const named = (event: { toolName: string; providerToolName: string }) => [
      event.toolName,
      event.providerToolName,
    ];
    expect(ofType(events, 'tool-call').map(named)).toEqual([
      ['task', 'task'],
      ['other', 'other'],
    ]);
    expect(ofType(events, 'tool-result').map(named)).toEqual([
      ['task', 'task'],
      ['other', 'other'],
    ]);
  });

  test('a call the client refused ends rejected when the agent ends it failed', () => {
    const events = normalizeText(
      traffic(
        prompt(1, 'delete it'),
        update({
          sessionUpdate: 'tool_call',
          toolCallId: 't1',
          title: 'rm',
          kind: 'delete',
          status: 'pending',
        }),
        {
          id: 7,
          method: 'session/request_permission',
          params: {
            sessionId: 's',
            toolCall: { toolCallId: 't1' },
            options: [{ optionId: 'no', name: 'Reject', kind: 'reject_once' }],
          },
        },
        { id: 7, result: { outcome: { outcome: 'selected', optionId: 'no' } } },
        update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed' }),
        { id: 1, result: { stopReason: 'end_turn' } },
      ),
    );
    expect(ofType(events, 'tool-result').map((result) => result.status)).toEqual(['rejected']);
  });
});

const WRAPPERS: ReadonlyArray<(message: unknown, index: number) => unknown> = [
  (message) => message,
  (message, index) => ({ dir: 'a2c', ms: index, msg: message }),
  (message, index) => ({ seq: index, at: '2026-10-05T10:00:00Z', direction: 'inbound', message }),
  (message, index) => ({ seq: index, dir: 'a2c', t_utc: '2026-10-05T10:00:00Z', frame: message }),
];

describe('the wrappers clients log ACP in', () => {
  const agentSide = lines('cursor-agent-tools.ndjson')
    .filter((line) => line.dir === 'a2c')
    .map((line) => line.msg);

  test.prop([
    fc.array(fc.nat({ max: WRAPPERS.length - 1 }), {
      minLength: agentSide.length,
      maxLength: agentSide.length,
    }),
  ])('give the same events however each line is wrapped', (choices) => {
    const plain = withoutLoc(normalizeText(ndjson(agentSide)));
    const wrapped = agentSide.map((message, index) => WRAPPERS[choices[index] ?? 0]?.(message, index));
    expect(withoutLoc(normalizeText(ndjson(wrapped)))).toEqual(plain);
  });

  test('the agent’s side alone still reads as a turn with all its text', () => {
    const events = normalizeText(ndjson(agentSide));
    expect(assistantText(events)).toBe(assistantText(read('cursor-agent-tools.ndjson')));
    expect(reduceSessions(events).map((session) => session.status)).toEqual(['success']);
  });

  test('the update objects alone read as a turn ended by the input', () => {
    const updates = agentSide
      .map((message) => (message as { params?: { update?: unknown } }).params?.update)
      .filter((update) => update !== undefined);
    const events = normalizeText(ndjson(updates));
    expect(assistantText(events)).toBe(assistantText(read('cursor-agent-tools.ndjson')));
    expect(ofType(events, 'finish').map((finish) => finish.finishReason)).toEqual(['incomplete']);
  });
});

describe('what a session notification logged alone, or a failed request, says', () => {
  const agentSide = lines('cursor-agent-tools.ndjson')
    .filter((line) => line.dir === 'a2c')
    .map((line) => line.msg as { method?: string; params?: unknown });

  test('`{sessionId, update}` lines, as SDK-based clients log them, read as the notifications they are', () => {
    const params = agentSide.filter((message) => message.method === 'session/update').map((m) => m.params);
    for (const line of params) {
      expect(isSessionNotification?.(line)).toBe(true);
      expect(acpDialect.validate(line as Record<string, unknown>)).toEqual([]);
    }
    const events = normalizeText(ndjson(params));
    expect(ofType(events, 'invalid-line')).toEqual([]);
    expect(assistantText(events)).toBe(assistantText(read('cursor-agent-tools.ndjson')));
  });

  test('a session the agent refuses to create is a failed session, saying why', () => {
    const events = normalizeText(
      traffic(
        { id: 1, method: 'session/new', params: { cwd: '/repo', mcpServers: [] } },
        { id: 1, error: { code: -32000, message: 'Authentication required' } },
      ),
    );
    const [session, ...more] = reduceSessions(events);
    expect(more).toEqual([]);
    expect(session?.status).toBe('error');
    expect(session?.failure?.message).toBe('session/new: Authentication required');
    expect(session?.failure?.code).toBe('auth');
  });

  test.each([
    [{ message: 'prompt is empty' }, 'session/new: Internal error: prompt is empty'],
    [{ details: 'quota' }, 'session/new: Internal error: quota'],
    [
      [
        { path: ['prompt'], message: 'Invalid input' },
        { path: [], message: 'Required' },
      ],
      'session/new: Internal error: prompt: Invalid input; Required',
    ],
  ])('an error whose data says more (%j) says it in the failure', (data, why) => {
    const events = normalizeText(
      traffic(
        { id: 1, method: 'session/new', params: { cwd: '/repo', mcpServers: [] } },
        { id: 1, error: { code: -32603, message: 'Internal error', data } },
      ),
    );
    expect(reduceSessions(events)[0]?.failure?.message).toBe(why);
  });

  test("the client refusing an extension request of the agent's is an answer, not the session's failure", () => {
    const events = normalizeText(
      ndjson([
        { dir: 'c2a', msg: { jsonrpc: '2.0', ...prompt(1, 'hi') } },
        { dir: 'a2c', msg: { jsonrpc: '2.0', ...chunk('Hello') } },
        { dir: 'a2c', msg: { jsonrpc: '2.0', id: 7001, method: 'cursor/task', params: { sessionId: 's' } } },
        {
          dir: 'c2a',
          msg: { jsonrpc: '2.0', id: 7001, error: { code: -32601, message: 'Method not found' } },
        },
        { dir: 'a2c', msg: { jsonrpc: '2.0', id: 1, result: { stopReason: 'end_turn' } } },
      ]),
    );
    expect(ofType(events, 'error')).toEqual([]);
    expect(
      ofType(events, 'interaction').map((event) => [event.phase, event.queryType, event.outcome]),
    ).toEqual([
      ['request', 'cursor/task', undefined],
      ['response', 'cursor/task', 'error'],
    ]);
    const [session] = reduceSessions(events);
    expect([session?.status, session?.failure]).toEqual(['success', null]);
  });

  test('`<<` and `>>` prefixes give the direction of the message they carry', () => {
    const text = [
      `>> ${JSON.stringify({ jsonrpc: '2.0', ...prompt(1, 'hi') })}`,
      `<< ${JSON.stringify({ jsonrpc: '2.0', ...chunk('Hello') })}`,
      `<< ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { stopReason: 'end_turn' } })}`,
      '',
    ].join('\n');
    const events = normalizeText(text);
    expect(ofType(events, 'invalid-line')).toEqual([]);
    expect(assistantText(events)).toBe('Hello');
    expect(ofType(events, 'user-message').map((message) => message.text)).toEqual(['hi']);
  });

  test("Claude Code's adapter, which names no agent, is named by the marks it puts in `_meta`", () => {
    const text = traffic({
      method: 'session/update',
      params: {
        sessionId: 's',
        update: { sessionUpdate: 'usage_update', used: 1, size: 2, _meta: { '_claude/model': 'x' } },
      },
    });
    expect(normalizeText(text).length).toBeGreaterThan(0);
    const { normalizer } = normalizeChunksOf([text]);
    expect(normalizer.foreign?.message).toBe(
      'this looks like an Agent Client Protocol (agent "Claude Code") log, not cursor-agent',
    );
  });
});

describe('the names a census gives ACP lines', () => {
  const request = (id: number, method: string) => ({ jsonrpc: '2.0', id, method, params: {} });
  const answer = (id: number) => ({ jsonrpc: '2.0', id, result: {} });
  const failure = (id: number) => ({ jsonrpc: '2.0', id, error: { code: -32603, message: 'no' } });

  function names(records: readonly Record<string, unknown>[]): (string | null)[][] {
    const name = acpDialect.createRecordNamer?.();
    return records.map((record) => {
      const { type, subtype } = name?.(record) ?? { type: null, subtype: null };
      return [type, subtype];
    });
  }

  test('a response is named by the request it answers, once; one whose request the log lacks by what it is', () => {
    expect(
      names([request(1, 'session/new'), answer(1), answer(1), failure(2), request(3, 'x/y'), failure(3)]),
    ).toEqual([
      ['session/new', null],
      ['session/new', 'response'],
      ['response', null],
      ['error', null],
      ['x/y', null],
      ['x/y', 'error'],
    ]);
  });

  test('with directions, a response answers the other side’s request of its id', () => {
    const lines = [
      { dir: 'c2a', ms: 0, msg: request(1, 'session/prompt') },
      { dir: 'a2c', ms: 1, msg: request(1, 'session/request_permission') },
      { dir: 'c2a', ms: 2, msg: { ...answer(1), result: { outcome: { outcome: 'cancelled' } } } },
      { dir: 'a2c', ms: 3, msg: { ...answer(1), result: { stopReason: 'end_turn' } } },
    ];
    expect(names(lines).slice(2)).toEqual([
      ['session/request_permission', 'response'],
      ['session/prompt', 'response'],
    ]);
  });

  test('an update is named by its kind, in a notification or alone, and a recorder’s line as a note', () => {
    const update = { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'a' } };
    expect(
      names([
        { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update } },
        update,
        { dir: 'summary', ms: 9, msg: { turns: 1 } },
      ]),
    ).toEqual([
      ['session/update', 'agent_message_chunk'],
      ['session/update', 'agent_message_chunk'],
      ['note', 'summary'],
    ]);
  });
});

describe('ACP logged as text lines with a prefix', () => {
  const isNote = (event: CanonicalEvent) => event.type === 'status' && event.status === 'note';

  test('a capture script’s `<seconds> -->`/`<--` lines read as the messages they carry, its `###` lines as notes', () => {
    const prefixed = read('fx-wire-capture.prefixed.log');
    expect(ofType(prefixed, 'invalid-line')).toEqual([]);
    const logged = readFileSync(join(ACP_DIR, 'fx-wire-capture.prefixed.log'), 'utf8')
      .split('\n')
      .filter(Boolean);
    for (const line of logged) {
      const record = acpDialect.readTextLine?.(line);
      expect(record && acpDialect.validate(record), line).toEqual([]);
      if (record?.dir !== 'note') expect(isAcpMessage?.(record?.msg), line).toBe(true);
    }
    expect(
      prefixed.filter(isNote).map((note) => (note as { extraFields?: unknown }).extraFields),
    ).toContainEqual({
      text: 'initialize answered: True',
    });
    expect(prefixed.filter(isNote)).toHaveLength(18);
    // The same payloads with their prefixes stripped read as the same turns; the directions also tie the last run's
    // error to the request it answers, which the stripped payloads cannot.
    const said = (events: CanonicalEvent[]) =>
      withoutLoc(events.filter((event) => !isNote(event) && event.type !== 'error'));
    expect(said(prefixed)).toEqual(said(read('fx-wire-capture.ndjson')));
    expect(ofType(prefixed, 'error').map((error) => error.message.split(':')[0])).toEqual([
      'the turn stopped',
      'initialize',
      'session/new',
    ]);
  });

  const PREFIXES = {
    c2a: ['-->', '→', 'CLIENT'],
    a2c: ['<--', '←', 'SERVER'],
  } as const;
  const messages = lines('cursor-agent-tools.ndjson').filter((line) => line.dir !== 'summary') as {
    dir: 'c2a' | 'a2c';
    ms: number;
    msg: unknown;
  }[];

  test.prop([
    fc.array(fc.record({ prefix: fc.nat(2), timed: fc.boolean() }), {
      minLength: messages.length,
      maxLength: messages.length,
    }),
  ])('read with their direction, whichever prefix the client writes', (choices) => {
    const wrapped = withoutLoc(normalizeText(ndjson(messages)));
    const text = messages
      .map((line, index) => {
        const choice = choices[index] ?? { prefix: 0, timed: false };
        const time = choice.timed ? `${(line.ms / 1000).toFixed(3)} ` : '';
        return `${time}${PREFIXES[line.dir][choice.prefix]} ${JSON.stringify(line.msg)}\n`;
      })
      .join('');
    expect(withoutLoc(normalizeText(text))).toEqual(wrapped);
  });

  test('a prefixed line that holds no ACP message stays output the agent wrote', () => {
    const events = normalizeText('0.5 --> {"type":"x"}\nSERVER starting\n12 ### note without its time\n');
    expect(ofType(events, 'invalid-line').map((event) => [event.loc?.line, event.code])).toEqual([
      [1, 'invalid-json'],
      [2, 'non-json-output'],
    ]);
  });
});
