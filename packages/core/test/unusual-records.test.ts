import { createNormalizer } from '@cursor-stream/core';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { describe, expect, test } from 'vitest';
import { assistantText, normalizeText, ofType } from './support.ts';

const INIT = { type: 'system', subtype: 'init', session_id: 's', model: 'Auto' };
const read = { readToolCall: { args: { path: 'a' }, result: { success: { content: 'x' } } } };

describe('records in unusual orders and shapes', () => {
  test('a call whose completion comes before its start is not pending at the finish', () => {
    const events = normalizeText(
      ndjson([
        INIT,
        { type: 'tool_call', subtype: 'completed', call_id: 'c1', tool_call: read },
        { type: 'tool_call', subtype: 'started', call_id: 'c1', tool_call: read },
        { type: 'result', subtype: 'success', is_error: false, result: '' },
      ]),
    );
    expect(ofType(events, 'finish')[0]?.pendingToolCallIds).toEqual([]);
  });

  test('a new session starts its text afresh even without a prompt between the sessions', () => {
    const delta = (text: string) => ({
      type: 'assistant',
      message: { content: [{ type: 'text', text }] },
      timestamp_ms: 1,
    });
    const final = (text: string) => ({ type: 'assistant', message: { content: [{ type: 'text', text }] } });
    const events = normalizeText(ndjson([INIT, delta('Hi'), INIT, final('Hi there')]));
    const [, second] = ofType(events, 'stream-start');
    const secondSession = events.slice(events.indexOf(second as (typeof events)[number]));
    expect(assistantText(secondSession)).toBe('Hi there');
  });

  test('values that break String() (a "toString" key) give events, not a dialect failure', () => {
    const records = [
      { type: { toString: 1 }, chatId: 'c', payload: {} },
      {
        type: 'result',
        subtype: 'error',
        payload: { is_error: true, errors: [{ toString: 1 }, 'disk full'] },
      },
    ];
    const events = normalizeText(ndjson(records), { dialect: 'payload-envelope' });
    expect(events.filter((event) => event.type === 'invalid-line' && /failed/.test(event.message))).toEqual(
      [],
    );
    expect(ofType(events, 'error').map((event) => event.message)).toEqual(['disk full']);
  });

  test('pushRecord of a value JSON cannot write never throws', () => {
    const odd = Object.assign(Object.create(null), { big: 1n });
    expect(() => createNormalizer().pushRecord(odd)).not.toThrow();
  });

  test('a wrapper result with no success flag, exit code or error is a success; tool names in snake case map too', () => {
    const events = normalizeText(
      ndjson([
        { type: 'tool-call-started', tool_name: 'web_search', tool_call_id: 'w1', parameters: {} },
        {
          type: 'tool-call-completed',
          tool_name: 'web_search',
          tool_call_id: 'w1',
          result: { output: 'ok' },
        },
      ]),
    );
    expect(ofType(events, 'tool-result')[0]).toMatchObject({
      toolName: 'web-search',
      status: 'success',
      isError: false,
    });
  });

  test("a CLI record inside the envelope's raw wrapper shares the stream's text, so a final copy is not repeated", () => {
    const envelope = (text: string, extra: object = {}) => ({
      type: 'assistant',
      payload: { message: { content: [{ type: 'text', text }] }, ...extra },
    });
    const cliDelta = {
      type: 'assistant',
      message: { content: [{ type: 'text', text: 'B' }] },
      timestamp_ms: 2,
    };
    const events = normalizeText(
      ndjson([
        { type: 'system', subtype: 'init', payload: {} },
        envelope('A', { timestamp_ms: 1 }),
        { type: 'raw', data: JSON.stringify(cliDelta) },
        envelope('C', { timestamp_ms: 3 }),
        envelope('ABC'),
      ]),
    );
    expect(assistantText(events)).toBe('ABC');
  });

  test('a serialized AgentEvent result without its data keeps the result text from its text field', () => {
    const events = normalizeText(
      ndjson([
        { type: 'system:init', raw_type: 'system', subtype: 'init', session_id: 's', data: null },
        {
          type: 'result:success',
          raw_type: 'result',
          subtype: 'success',
          text: 'The answer is 4.',
          session_id: 's',
        },
      ]),
    );
    expect(ofType(events, 'finish')[0]).toMatchObject({ finishReason: 'stop', text: 'The answer is 4.' });
  });
});
