import {
  BUILT_IN_DIALECTS,
  CANONICAL_EVENT_TYPES,
  type CanonicalEvent,
  type CanonicalEventType,
  createNormalizer,
  EVENT_TRAITS,
  eventTraits,
  isSessionContent,
  opensNewSession,
  reduceSessions,
  unreachable,
} from '@cursor-stream/core';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';

/** One event of each type, as the normalizer could give it. */
const SAMPLES: readonly CanonicalEvent[] = [
  { type: 'stream-start', sessionId: 's', model: 'Auto' },
  { type: 'user-message', text: 'hi' },
  { type: 'reasoning-delta', text: 'hmm' },
  { type: 'reasoning-end' },
  { type: 'text-delta', text: 'hello' },
  { type: 'tool-call', toolCallId: 'c', toolName: 'shell', providerToolName: 'shellToolCall', input: {} },
  {
    type: 'tool-result',
    toolCallId: 'c',
    toolName: 'shell',
    providerToolName: 'shellToolCall',
    status: 'success',
    isError: false,
    output: {},
  },
  { type: 'finish', finishReason: 'stop', isError: false, pendingToolCallIds: [] },
  { type: 'error', message: 'boom' },
  { type: 'status', kind: 'reconnecting', attempt: 1 },
  { type: 'interaction', phase: 'request', queryType: 'shellRequestQuery' },
  { type: 'usage', context: { used: 1200, size: null } },
  { type: 'plan', entries: [{ content: 'step', status: 'pending' }], source: 'plan' },
  { type: 'unknown', rawType: 'future', raw: { type: 'future' } },
  { type: 'invalid-line', code: 'invalid-json', message: 'bad', excerpt: '{' },
];

function sampleOf(type: CanonicalEventType): CanonicalEvent {
  const sample = SAMPLES.find((event) => event.type === type);
  if (sample === undefined) throw new Error(`no sample event of type ${type}: add one to SAMPLES`);
  return sample;
}

const START = sampleOf('stream-start');
const FINISH = sampleOf('finish');

/** An event of a type this version of the union does not have, as a newer core could hand one on. */
const FOREIGN = { type: 'checkpoint', sessionId: 's' } as unknown as CanonicalEvent;

describe('event traits', () => {
  test('every canonical type has its traits, and no other type does', () => {
    expect(Object.keys(EVENT_TRAITS).sort()).toEqual([...CANONICAL_EVENT_TYPES].sort());
  });

  test.each(CANONICAL_EVENT_TYPES)(
    '%s after a finish opens a new session exactly when its traits call it session content',
    (type) => {
      const event = sampleOf(type);
      const content = EVENT_TRAITS[type].sessionContent;
      expect(isSessionContent(event)).toBe(content);
      expect(opensNewSession(event, { hasContent: true, finished: true })).toBe(content);
      expect(reduceSessions([START, FINISH, event])).toHaveLength(content ? 2 : 1);
    },
  );

  test('reasoning is exactly the reasoning-* types, which thinking records give', () => {
    expect(CANONICAL_EVENT_TYPES.filter((type) => EVENT_TRAITS[type].reasoning)).toEqual([
      'reasoning-delta',
      'reasoning-end',
    ]);
    const thinking = ndjson([
      { type: 'thinking', subtype: 'delta', text: 'a', session_id: 's' },
      { type: 'thinking', subtype: 'completed', session_id: 's' },
    ]);
    const normalizer = createNormalizer();
    // The records' own events; the finish the end of input adds is no record's.
    const events = [...normalizer.feed(thinking), ...normalizer.end()].filter(
      (event) => event.loc !== undefined,
    );
    expect(events.map((event) => eventTraits(event.type).reasoning)).toEqual([true, true]);
  });
});

describe('an event of a type from outside the union', () => {
  test('has neither trait, and opens no session after a finish', () => {
    expect(eventTraits(FOREIGN.type)).toEqual({ sessionContent: false, reasoning: false });
    expect(opensNewSession(FOREIGN, { hasContent: true, finished: true })).toBe(false);
    const sessions = reduceSessions([START, FINISH, FOREIGN]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.counts).toMatchObject({ 'stream-start': 1, finish: 1, checkpoint: 1 });
  });

  test('is written by no built-in encoder, and the rest of the stream is', () => {
    for (const dialect of BUILT_IN_DIALECTS) {
      expect(dialect.encode?.([START, FOREIGN, FINISH])).toEqual(dialect.encode?.([START, FINISH]));
    }
  });

  test('reaches unreachable, which leaves it to the caller to skip', () => {
    expect(unreachable(FOREIGN as never)).toBeUndefined();
  });
});

describe('the traits asked for in any order', () => {
  const anyType = fc.oneof(
    fc.constantFrom(...CANONICAL_EVENT_TYPES),
    fc.constantFrom('constructor', '__proto__', 'toString', '', 'checkpoint'),
    fc.string(),
  );
  propertyTest.prop([fc.array(anyType, { maxLength: 40 })], { numRuns: 300 })(
    "are each type's own, whatever was asked before",
    (types) => {
      for (const type of types) {
        const own = Object.hasOwn(EVENT_TRAITS, type)
          ? EVENT_TRAITS[type as CanonicalEventType]
          : { sessionContent: false, reasoning: false };
        expect(eventTraits(type as CanonicalEventType)).toEqual(own);
      }
    },
  );
});
