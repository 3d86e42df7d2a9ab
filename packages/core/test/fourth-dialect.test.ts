import { BUILT_IN_DIALECTS, type CanonicalEvent, type Dialect, type JsonObject } from '@cursor-stream/core';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { describe, expect, test } from 'vitest';
import { normalizeText, ofType } from './support.ts';

/**
 * A made-up dialect, as a third party would write it (the same as the README's "Adding a dialect"): records
 * `{ "kind": "hello" | "say" | "bye", ... }` from a chat bridge. It counts its lines in its per-stream state.
 */
const chatBridgeDialect: Dialect<{ said: number }> = {
  name: 'chat-bridge',
  description: 'A chat bridge that logs {kind: hello|say|bye} records.',
  detect: (record) =>
    record.kind === 'hello' || record.kind === 'say' || record.kind === 'bye' ? 'distinctive' : 'foreign',
  validate: (record) =>
    typeof record.kind === 'string'
      ? []
      : [{ pointer: '/kind', message: 'must be a string', keyword: 'type' }],
  createState: () => ({ said: 0 }),
  normalize(record: JsonObject, { state, loc }): CanonicalEvent[] {
    if (record.kind === 'hello') return [{ type: 'stream-start', model: String(record.bot), loc }];
    if (record.kind === 'say') {
      state.said++;
      return [{ type: 'text-delta', text: String(record.text), loc }];
    }
    return [
      {
        type: 'finish',
        finishReason: 'stop',
        isError: false,
        text: `${state.said} lines`,
        pendingToolCallIds: [],
        loc,
      },
    ];
  },
};

describe('a fourth dialect registered next to the built-in ones', () => {
  const records = [
    { kind: 'hello', bot: 'echo-bot' },
    { kind: 'say', text: 'Hi ' },
    { type: 'thinking', subtype: 'delta', text: 'a CLI record in the middle' },
    { kind: 'say', text: 'there' },
    { kind: 'bye' },
  ];

  test('is detected, normalizes its records with its own state, and leaves the others to their dialects', () => {
    const seen: (string | undefined)[] = [];
    const events = normalizeText(ndjson(records), {
      dialects: [...BUILT_IN_DIALECTS, chatBridgeDialect as Dialect],
      onRecord: (_record, dialect) => seen.push(dialect?.name),
    });
    expect(events.map((event) => event.type)).toEqual([
      'stream-start',
      'text-delta',
      'reasoning-delta',
      'text-delta',
      'finish',
    ]);
    expect(ofType(events, 'finish')[0]?.text).toBe('2 lines');
    expect(seen).toEqual(['chat-bridge', 'chat-bridge', 'official', 'chat-bridge', 'chat-bridge']);
  });

  test('can be forced by name', () => {
    const events = normalizeText(ndjson(records.slice(0, 2)), {
      dialect: 'chat-bridge',
      dialects: [...BUILT_IN_DIALECTS, chatBridgeDialect as Dialect],
    });
    expect(ofType(events, 'stream-start')[0]?.model).toBe('echo-bot');
  });

  test('without registering it, its records match no dialect', () => {
    const events = normalizeText(ndjson(records.slice(0, 1)));
    expect(events[0]).toMatchObject({ type: 'invalid-line', code: 'unrecognized-record' });
  });
});
