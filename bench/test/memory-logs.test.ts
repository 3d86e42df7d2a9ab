import { createNormalizer, reduceSessions } from '@cursor-stream/core';
import { describe, expect, it } from 'vitest';
import { hugeTextSession, ordinarySession } from '../src/memory-logs.ts';

function read(text: string) {
  const normalizer = createNormalizer({ dialect: 'auto' });
  return [...normalizer.feed(text), ...normalizer.end()];
}

describe('the memory rows’ logs', () => {
  it('ordinary sessions are clean official sessions, one each, with distinct ids, about 4 KB', () => {
    const text = [0, 1, 2].map(ordinarySession).join('');
    const events = read(text);
    expect(events.filter((event) => event.type === 'invalid-line')).toEqual([]);
    const sessions = reduceSessions(events);
    expect(sessions.map((session) => [session.status, session.text === session.resultText])).toEqual([
      ['success', true],
      ['success', true],
      ['success', true],
    ]);
    expect(new Set(sessions.map((session) => session.sessionId)).size).toBe(3);
    expect(ordinarySession(0).length).toBeGreaterThan(4000);
  });

  it('the huge-text session holds at least the text asked for, in one session', () => {
    const text = [...hugeTextSession(2_000_000)].join('');
    const sessions = reduceSessions(read(text));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.textLength).toBeGreaterThanOrEqual(2_000_000);
    expect(sessions[0]?.status).toBe('success');
  });
});
