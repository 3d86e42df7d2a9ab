import {
  type CanonicalEvent,
  reduceSessions,
  type SessionSummary,
  type ToolCallEvent,
  type ToolResultEvent,
} from '@cursor-stream/core';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { ARM_RESULTS, canonicalLog } from '../../core/test/canonical-sessions.ts';
import { createSummaryJsonWriter, type SummaryJson, sessionJson } from '../src/format/summary-json.ts';
import {
  type BoundedSession,
  createBoundedSessions,
  finishedSession,
} from '../src/sessions/bounded-sessions.ts';
import { createTextKeeper } from '../src/sessions/kept-text.ts';

function keep(pieces: readonly string[], head: number, tail: number) {
  const keeper = createTextKeeper(head, tail);
  for (const piece of pieces) keeper.append(piece);
  return keeper.end();
}

function sessionsOf(events: readonly CanonicalEvent[], options = {}): BoundedSession[] {
  const sessions: BoundedSession[] = [];
  const bounded = createBoundedSessions(options, (session) => sessions.push(session));
  for (const event of events) bounded.push(event);
  bounded.end();
  return sessions;
}

describe('createTextKeeper', () => {
  test.prop([fc.array(fc.string({ unit: 'binary' }), { maxLength: 20 }), fc.nat(8), fc.nat(8)])(
    'keeps a short text whole and a long one as head and tail, and compares the whole exactly',
    (pieces, head, tail) => {
      const whole = pieces.join('');
      const kept = keep(pieces, head + 1, tail + 1);
      expect(kept.length).toBe(whole.length);
      expect(kept.equals(whole)).toBe(true);
      expect(kept.equals(`${whole}x`)).toBe(false);
      if (kept.omitted === null) {
        expect(kept.text).toBe(whole);
        return;
      }
      const { at, length } = kept.omitted;
      expect(whole.length).toBeGreaterThan(head + tail + 2);
      expect(kept.text.length + length).toBe(whole.length);
      expect(kept.text.slice(0, at)).toBe(whole.slice(0, at));
      expect(kept.text.slice(at)).toBe(whole.slice(at + length));
      expect(at).toBeLessThanOrEqual(head + 1);
      expect(kept.text.length - at).toBeLessThanOrEqual(tail + 1);
      // A different middle is seen although it is not kept.
      const changed = `${whole.slice(0, at)}${'\u0000'.repeat(length)}${whole.slice(at + length)}`;
      expect(kept.equals(changed)).toBe(changed === whole);
    },
  );

  test('does not split a surrogate pair at either cut', () => {
    const cutInPairs = keep(['a😀😀😀😀😀😀b'], 2, 2);
    expect(cutInPairs.text).toBe('ab');
    expect(cutInPairs.omitted).toEqual({ at: 1, length: 12 });
    const cutBetweenPairs = keep(['a😀😀😀😀😀😀b'], 3, 3);
    expect(cutBetweenPairs.text).toBe('a😀😀b');
    expect(cutBetweenPairs.omitted).toEqual({ at: 3, length: 8 });
  });
});

describe('createBoundedSessions', () => {
  test.prop([
    canonicalLog({ tools: [['shell', 'shellToolCall']], toolResult: ARM_RESULTS, modelCallIds: true }),
  ])("within its bounds, hands on exactly the core reducer's sessions, one at a time", (events) => {
    const expected = reduceSessions(events);
    const sessions = sessionsOf(events);
    expect(sessions.map((session) => session.summary)).toEqual(expected);
    for (const session of sessions) {
      expect(session.textMatchesResult).toBe(
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
    expect(same?.text.omitted).toEqual({ at: 4, length: 93 });
    expect(same?.textMatchesResult).toBe(true);
    expect(different?.textMatchesResult).toBe(false);
  });
});

describe('createSummaryJsonWriter', () => {
  const summary = (sessionId: string): SessionSummary => ({
    sessionId,
    dialect: 'official',
    model: null,
    status: 'success',
    text: 'line\none',
    resultText: 'line\none',
    toolCalls: [],
    counts: { 'stream-start': 1 },
    failure: null,
    durationMs: 5,
    usage: { inputTokens: 3 },
  });

  test.each([0, 1, 3])(
    'writes %i sessions exactly as JSON.stringify prints the whole document',
    async (count) => {
      const sessions = Array.from({ length: count }, (_, index) =>
        sessionJson(finishedSession(summary(`s${index}`)), null),
      );
      const rest = {
        invalidLines: [{ line: 2, offset: 10, code: 'invalid-json' }],
        invalidLinesOmitted: 4,
        lines: 9,
        bytes: 99,
      };
      const parts: string[] = [];
      const writer = createSummaryJsonWriter(async (text) => {
        parts.push(text);
      });
      for (const session of sessions) await writer.session(session);
      await writer.end(rest);
      const whole: SummaryJson = { sessions, ...rest };
      expect(parts.join('')).toBe(`${JSON.stringify(whole, null, 2)}\n`);
      expect(parts.length).toBe(count + 1);
    },
  );
});
