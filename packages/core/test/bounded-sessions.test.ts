import {
  type CanonicalEvent,
  reduceSessions,
  type ToolCallEvent,
  type ToolResultEvent,
} from '@cursor-stream/core';
import {
  type BoundedSession,
  createBoundedSessions,
  MAX_TOOL_CALLS_LISTED,
  trackSessionFacts,
} from '@cursor-stream/core/sessions';
import { ARM_RESULTS, canonicalLog } from '@cursor-stream/test-kit/canonical-sessions';
import { test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';

function sessionsOf(events: readonly CanonicalEvent[], options = {}): BoundedSession[] {
  const sessions: BoundedSession[] = [];
  const bounded = createBoundedSessions(options, (session) => sessions.push(session));
  for (const event of events) bounded.push(event);
  bounded.end();
  return sessions;
}

describe('createBoundedSessions', () => {
  test.prop([
    canonicalLog({ tools: [['shell', 'shellToolCall']], toolResult: ARM_RESULTS, modelCallIds: true }),
  ])("within its bounds, hands on exactly the core reducer's sessions, one at a time", (events) => {
    const expected = reduceSessions(events);
    const sessions = sessionsOf(events);
    expect(sessions.map((session) => session.summary)).toEqual(expected);
    for (const session of sessions) {
      expect(session.summary.textMatchesResult).toBe(
        session.summary.resultText === null ? null : session.summary.resultText === session.summary.text,
      );
    }
  });

  test('hands a session on when the next begins, not at the end', () => {
    const handed: (string | null)[] = [];
    const bounded = createBoundedSessions({}, (session) => handed.push(session.summary.sessionId));
    bounded.push({ type: 'stream-start', sessionId: 'a' });
    bounded.push({
      type: 'finish',
      finishReason: 'stop',
      isError: false,
      pendingToolCallIds: [],
      sessionId: 'a',
    });
    expect(handed).toEqual([]);
    bounded.push({ type: 'stream-start', sessionId: 'b' });
    expect(handed).toEqual(['a']);
    bounded.end();
    expect(handed).toEqual(['a', 'b']);
  });

  test('lists the first tool calls and counts the rest, keeping every event in the counts', () => {
    const events: CanonicalEvent[] = [{ type: 'stream-start', sessionId: 's' }];
    for (let index = 0; index < 5; index++) {
      const id = `call-${index}`;
      events.push({ type: 'tool-call', toolCallId: id, toolName: 'shell', input: {} } as ToolCallEvent);
      events.push({
        type: 'tool-result',
        toolCallId: id,
        toolName: 'shell',
        status: 'success',
      } as ToolResultEvent);
    }
    const [session] = sessionsOf(events, { maxToolCalls: 2 });
    expect(session?.summary.toolCalls.map((call) => call.toolCallId)).toEqual(['call-0', 'call-1']);
    expect(session?.toolCallsOmitted).toBe(3);
    expect(session?.summary.counts).toMatchObject({ 'tool-call': 5, 'tool-result': 5 });
  });

  test('keeps a long text as head and tail and still tells whether it matches the result', () => {
    const text = 'x'.repeat(100);
    const events = (resultText: string): CanonicalEvent[] => [
      { type: 'stream-start' },
      ...Array.from({ length: 10 }, (): CanonicalEvent => ({ type: 'text-delta', text: text.slice(0, 10) })),
      { type: 'finish', finishReason: 'stop', isError: false, pendingToolCallIds: [], text: resultText },
    ];
    const options = { textHeadLength: 4, textTailLength: 3 };
    const [same] = sessionsOf(events(text), options);
    const [different] = sessionsOf(events(`${text.slice(0, 50)}y${text.slice(51)}`), options);
    expect(same?.summary.text).toBe('xxxxxxx');
    expect(same?.summary.textOmitted).toEqual({ at: 4, length: 93 });
    expect(same?.summary.textMatchesResult).toBe(true);
    expect(different?.summary.textMatchesResult).toBe(false);
  });
});

describe('calls past the listed ones', () => {
  test('are counted by their starts, and the failed ones by completions neither `success` nor `pending`', () => {
    const call = (id: string) => ({
      type: 'tool-call' as const,
      toolCallId: id,
      toolName: 'shell',
      providerToolName: 'shellToolCall',
      input: null,
    });
    const result = (id: string, status: string) => ({
      type: 'tool-result' as const,
      toolCallId: id,
      toolName: 'shell',
      providerToolName: 'shellToolCall',
      status,
      isError: status !== 'success',
      output: null,
    });
    const sessions: BoundedSession[] = [];
    const bounded = createBoundedSessions({ maxToolCalls: 1 }, (session) => sessions.push(session));
    for (const event of [
      { type: 'stream-start' as const, sessionId: 's' },
      call('listed'),
      result('listed', 'failure'),
      call('failed'),
      result('failed', 'error'),
      call('ok'),
      result('ok', 'success'),
      call('pending-arm'),
      result('pending-arm', 'pending'),
      call('failed-twice'),
      result('failed-twice', 'rejected'),
      // Not remembered past the bound: said twice, it counts twice.
      result('failed-twice', 'rejected'),
      { type: 'finish' as const, finishReason: 'stop' as const, isError: false, pendingToolCallIds: [] },
    ])
      bounded.push(event);
    bounded.end();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.summary.toolCalls.map((listed) => listed.toolCallId)).toEqual(['listed']);
    expect(sessions[0]?.toolCallsOmitted).toBe(4);
    expect(sessions[0]?.failedCallsOmitted).toBe(3);
  });
});

describe('trackSessionFacts', () => {
  const session = (calls: number) => [
    { type: 'stream-start' as const, sessionId: 's' },
    ...Array.from({ length: calls }, (_, index) => ({
      type: 'tool-call' as const,
      toolCallId: `c${index}`,
      toolName: 'read',
      providerToolName: 'readToolCall',
      input: null,
    })),
    { type: 'finish' as const, finishReason: 'stop' as const, isError: false, pendingToolCallIds: [] },
  ];

  test('lists the first calls by default, none past `maxToolCalls`, and counts them all', () => {
    for (const [options, listed] of [
      [{}, MAX_TOOL_CALLS_LISTED],
      [{ maxToolCalls: 0 }, 0],
      [{ maxToolCalls: 2000 }, 1500],
    ] as const) {
      const tracker = trackSessionFacts('log.ndjson', options);
      for (const event of session(1500)) tracker.push(event, undefined);
      const facts = tracker.facts();
      expect(facts?.summary.toolCalls).toHaveLength(listed);
      expect(facts?.toolCallsOmitted).toBe(1500 - listed);
      expect(facts?.summary.counts['tool-call']).toBe(1500);
      expect(facts?.summary.status).toBe('success');
    }
  });
});
