import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { describe, expect, test } from 'vitest';
import { normalizeText, ofType } from './support.ts';

function completed(toolCall: object, extra: object = {}) {
  return { type: 'tool_call', subtype: 'completed', call_id: 'id\nfc_1', tool_call: toolCall, ...extra };
}
function started(toolCall: object, extra: object = {}) {
  return { type: 'tool_call', subtype: 'started', call_id: 'id\nfc_1', tool_call: toolCall, ...extra };
}

describe('official tool calls', () => {
  test('the kind is the key ending in ToolCall, wherever its siblings stand', () => {
    const toolCall = {
      toolCallId: 'id\nfc_1',
      hookAdditionalContexts: [],
      startedAtMs: '100',
      description: 'Echo',
      shellToolCall: { args: { command: 'echo hi' } },
    };
    const [call] = ofType(normalizeText(ndjson([started(toolCall)])), 'tool-call');
    expect(call).toMatchObject({
      toolCallId: 'id\nfc_1',
      toolName: 'shell',
      providerToolName: 'shellToolCall',
      input: { command: 'echo hi' },
    });
  });

  test('the protobuf oneof form and the function form name their tools too', () => {
    const records = [
      started({ tool: { case: 'grepToolCall', value: { args: { pattern: 'x' } } } }),
      { ...started({ function: { name: 'Read', arguments: '{"path":"a"}' } }), call_id: 'f1' },
    ];
    const calls = ofType(normalizeText(ndjson(records)), 'tool-call');
    expect(calls.map((call) => [call.toolName, call.providerToolName, call.input])).toEqual([
      ['grep', 'grepToolCall', { pattern: 'x' }],
      ['read', 'Read', { path: 'a' }],
    ]);
  });

  test.each([
    ['webSearchToolCall', 'web-search'],
    ['webFetchToolCall', 'web-fetch'],
    ['updateTodosToolCall', 'todo'],
    ['todoToolCall', 'todo'],
    ['mcpToolCall', 'mcp'],
    ['deleteToolCall', 'delete'],
    ['semSearchToolCall', 'semSearch'],
  ])('the kind %s is named %s', (kind, name) => {
    const [call] = ofType(normalizeText(ndjson([started({ [kind]: { args: {} } })])), 'tool-call');
    expect(call?.toolName).toBe(name);
  });

  test('result arms are read by name, ignoring non-arm siblings, and isError is false only for success', () => {
    const arms = ['success', 'failure', 'error', 'rejected', 'timeout', 'spawnError'];
    const records = arms.map((arm, index) => ({
      ...completed({ shellToolCall: { result: { isBackground: false, [arm]: { n: index } } } }),
      call_id: arm,
    }));
    const results = ofType(normalizeText(ndjson(records)), 'tool-result');
    expect(results.map((result) => [result.status, result.isError, result.output])).toEqual(
      arms.map((arm, index) => [arm, arm !== 'success', { n: index }]),
    );
  });

  test('a completion without its start keeps the tool it names, else is unknown', () => {
    const records = [
      completed({ mcpToolCall: { result: { rejected: { reason: 'no' } } } }),
      { ...completed({ result: { success: {} } }), call_id: 'bare' },
    ];
    const results = ofType(normalizeText(ndjson(records)), 'tool-result');
    expect(results.map((result) => [result.toolName, result.providerToolName, result.status])).toEqual([
      ['mcp', 'mcpToolCall', 'rejected'],
      ['unknown', 'unknown', 'success'],
    ]);
  });

  test('durations come from startedAtMs/completedAtMs, else duration_ms, else the timestamps', () => {
    const records = [
      started({ readToolCall: { args: {} }, startedAtMs: '1000' }, { call_id: 'a', timestamp_ms: 1 }),
      completed(
        { readToolCall: { result: { success: {} } }, completedAtMs: '1250' },
        { call_id: 'a', timestamp_ms: 9 },
      ),
      started({ readToolCall: { args: {} } }, { call_id: 'b', timestamp_ms: 100 }),
      completed(
        { readToolCall: { result: { success: {} } } },
        { call_id: 'b', duration_ms: 7, timestamp_ms: 900 },
      ),
      started({ readToolCall: { args: {} } }, { call_id: 'c', timestamp_ms: 100 }),
      completed({ readToolCall: { result: { success: {} } } }, { call_id: 'c', timestamp_ms: 160 }),
      started({ readToolCall: { args: {} } }, { call_id: 'd', timestamp_ms: 500 }),
      completed({ readToolCall: { result: { success: {} } } }, { call_id: 'd', timestamp_ms: 400 }),
    ];
    const results = ofType(normalizeText(ndjson(records)), 'tool-result');
    expect(results.map((result) => result.durationMs)).toEqual([250, 7, 60, undefined]);
  });

  test('a completion without args still completes the call its id started', () => {
    const records = [
      started({ readToolCall: { args: { path: 'x' } } }),
      completed({ readToolCall: { result: { error: { errorMessage: 'File not found' } } } }),
    ];
    const events = normalizeText(ndjson(records));
    expect(ofType(events, 'tool-result')[0]).toMatchObject({
      toolName: 'read',
      status: 'error',
      isError: true,
    });
    expect(ofType(events, 'finish')[0]?.pendingToolCallIds).toEqual([]);
  });

  test('a call is paired with a start of its own session only: an id met again after an init is a new call', () => {
    const init = (session: string) => ({ type: 'system', subtype: 'init', session_id: session, model: 'm' });
    const records = [
      init('s1'),
      started({ readToolCall: { args: { path: 'x' } } }, { call_id: 'call-0', timestamp_ms: 100 }),
      init('s2'),
      completed({ readToolCall: { result: { success: {} } } }, { call_id: 'call-0', timestamp_ms: 900 }),
      started({ shellToolCall: { args: { command: 'ls' } } }, { call_id: 'call-1', timestamp_ms: 1000 }),
      completed({ shellToolCall: { result: { success: {} } } }, { call_id: 'call-1', timestamp_ms: 1500 }),
    ];
    const results = ofType(normalizeText(ndjson(records)), 'tool-result');
    // The first completion's start was another session's: no duration spans the two, as an orphan has none.
    expect(results.map((result) => [result.toolCallId, result.durationMs])).toEqual([
      ['call-0', undefined],
      ['call-1', 500],
    ]);
  });
});

describe('official assistant text', () => {
  const message = (text: string, extra: object = {}) => ({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'text', text }] },
    ...extra,
  });

  test('without partial output a message repeating an earlier one is kept', () => {
    const records = [message('done', { model_call_id: 'm-0', timestamp_ms: 1 }), message('done')];
    expect(ofType(normalizeText(ndjson(records)), 'text-delta').map((event) => event.text)).toEqual([
      'done',
      'done',
    ]);
  });

  test('partial-output forms give the text once: deltas, the same again with an id, the whole at the end', () => {
    const records = [
      message('Hel', { timestamp_ms: 1 }),
      message('lo', { timestamp_ms: 2 }),
      message('Hello', { model_call_id: 'm-0', timestamp_ms: 3 }),
      message(' world', { timestamp_ms: 4 }),
      message('Hello world'),
    ];
    const deltas = ofType(normalizeText(ndjson(records)), 'text-delta');
    expect(deltas.map((event) => event.text)).toEqual(['Hel', 'lo', ' world']);
  });

  test('a final message cumulative over a retry adds only what is new', () => {
    const records = [message('Hello!', { timestamp_ms: 1 }), message('Hello! How can I help?')];
    const deltas = ofType(normalizeText(ndjson(records)), 'text-delta');
    expect(deltas.map((event) => event.text)).toEqual(['Hello!', ' How can I help?']);
  });
});

describe('malformed records of modelled types', () => {
  test('a tool call without a string id is an invalid line, an unknown tool_call subtype an unknown event', () => {
    const records = [
      { type: 'tool_call', subtype: 'started', call_id: 5, tool_call: { shellToolCall: { args: {} } } },
      { type: 'tool_call', subtype: 'progress', call_id: 'c1', tool_call: { shellToolCall: { args: {} } } },
    ];
    const [malformed, future] = normalizeText(ndjson(records));
    expect(malformed).toMatchObject({
      type: 'invalid-line',
      code: 'schema-violation',
      message: 'tool_call/started without a string call_id',
      loc: { line: 1, offset: 0 },
    });
    expect(future).toMatchObject({ type: 'unknown', rawType: 'tool_call', rawSubtype: 'progress' });
  });
});
