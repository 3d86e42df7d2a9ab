import { type CanonicalEvent, createNormalizer, validateDialectRecord } from '@cursor-stream/core';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { describe, expect, test } from 'vitest';
import { normalizeText, ofType } from './support.ts';

// The WebSocket app forwards the CLI's lines as they are and closes each run with `{type: "result", exitCode}`.
const INIT = { type: 'system', subtype: 'init', session_id: 's1', model: 'Auto' };
const PROMPT = {
  type: 'user',
  message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
  session_id: 's1',
};
const TEXT = {
  type: 'assistant',
  message: { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
};
const RESULT = { type: 'result', subtype: 'success', is_error: false, result: 'Hello', session_id: 's1' };
const closing = (exitCode: number | null) => ({ type: 'result', exitCode });

function sessionsOf(events: readonly CanonicalEvent[]) {
  return ofType(events, 'stream-start').length;
}

describe("a wrapper's record of how the agent's process ended", () => {
  test("after the run's own result it is a status, not a second session", () => {
    const events = normalizeText(ndjson([INIT, PROMPT, TEXT, RESULT, closing(0)]));
    expect(sessionsOf(events)).toBe(1);
    expect(ofType(events, 'finish')).toHaveLength(1);
    expect(ofType(events, 'finish')[0]).toMatchObject({ isError: false, sessionId: 's1' });
    expect(ofType(events, 'status')).toEqual([
      expect.objectContaining({
        kind: 'status',
        status: 'exited',
        extraFields: { exitCode: 0 },
        sessionId: 's1',
      }),
    ]);
  });

  test('a run killed before its result ends failed, saying so, in its own session', () => {
    const events = normalizeText(ndjson([INIT, PROMPT, TEXT, closing(null)]));
    expect(sessionsOf(events)).toBe(1);
    const [finish, ...more] = ofType(events, 'finish');
    expect(more).toEqual([]);
    expect(finish).toMatchObject({ finishReason: 'error', isError: true, sessionId: 's1' });
    expect(finish?.failure?.message).toBe('the agent ended without an exit code (killed by a signal)');
    expect(finish?.exitCode).toBeUndefined();
  });

  test('a crash keeps the reason the agent printed, and the code it exited with', () => {
    const events = normalizeText(
      `${ndjson([INIT, PROMPT, TEXT])}Error: ConnectError: [unavailable] socket hang up\n${ndjson([closing(1)])}`,
    );
    const [finish] = ofType(events, 'finish');
    expect(finish).toMatchObject({ isError: true, exitCode: 1 });
    expect(finish?.failure).toMatchObject({ message: 'Error: ConnectError: [unavailable] socket hang up' });
  });

  test('a run that failed to start is a failed session with the error the app sent', () => {
    const events = normalizeText(
      ndjson([
        { type: 'error', message: 'Failed to start cursor-agent: spawn cursor-agent ENOENT' },
        closing(-2),
      ]),
    );
    expect(sessionsOf(events)).toBe(1);
    expect(ofType(events, 'finish')[0]).toMatchObject({
      isError: true,
      exitCode: -2,
      failure: { message: 'Failed to start cursor-agent: spawn cursor-agent ENOENT' },
    });
  });

  test('a process that wrote nothing and exited 0 opens no session', () => {
    const events = normalizeText(ndjson([closing(0)]));
    expect(sessionsOf(events)).toBe(0);
    expect(ofType(events, 'finish')).toEqual([]);
    expect(ofType(events, 'status')).toHaveLength(1);
  });

  test('each run of a log of several is one session', () => {
    const second = { ...INIT, session_id: 's2' };
    const events = normalizeText(ndjson([INIT, TEXT, RESULT, closing(0), second, TEXT, closing(137)]));
    expect(sessionsOf(events)).toBe(2);
    expect(
      ofType(events, 'finish').map((finish) => [finish.sessionId, finish.isError, finish.exitCode]),
    ).toEqual([
      ['s1', false, undefined],
      ['s2', true, 137],
    ]);
  });

  test('any chunking gives the same events', () => {
    const text = ndjson([INIT, PROMPT, TEXT, RESULT, closing(0), INIT, TEXT, closing(null)]);
    const whole = normalizeText(text);
    for (const size of [1, 7, 64]) {
      const normalizer = createNormalizer();
      const events: CanonicalEvent[] = [];
      const bytes = new TextEncoder().encode(text);
      for (let at = 0; at < bytes.length; at += size)
        events.push(...normalizer.feed(bytes.subarray(at, at + size)));
      events.push(...normalizer.end());
      expect(events).toEqual(whole);
    }
  });
});

describe('exit codes on results', () => {
  test('a result with a code other than 0 is a failure, named by its code when nothing else says why', () => {
    const events = normalizeText(
      ndjson([
        INIT,
        TEXT,
        { type: 'result', subtype: 'error', exitCode: 1, payload: { exitCode: 1, is_error: true } },
      ]),
    );
    expect(ofType(events, 'finish')[0]).toMatchObject({
      isError: true,
      exitCode: 1,
      failure: { message: 'the agent exited with code 1' },
    });
  });

  test("a CLI result that a wrapper gave the process's non-zero code is a failure", () => {
    const events = normalizeText(ndjson([INIT, TEXT, { ...RESULT, exitCode: 2 }]));
    expect(ofType(events, 'finish')[0]).toMatchObject({ isError: true, exitCode: 2 });
  });

  test("the closing message is valid in the app's schema, and only as it sends it", () => {
    expect(validateDialectRecord('payload-envelope', closing(0))).toEqual([]);
    expect(validateDialectRecord('payload-envelope', closing(null))).toEqual([]);
    expect(validateDialectRecord('payload-envelope', { type: 'result', exitCode: 'x' })).not.toEqual([]);
    expect(validateDialectRecord('payload-envelope', { type: 'result' })).not.toEqual([]);
  });

  test('a code that is no integer is not taken as one', () => {
    const events = normalizeText(ndjson([INIT, TEXT, { ...RESULT, exitCode: 1.5 }]));
    expect(ofType(events, 'finish')[0]).toMatchObject({ isError: false });
    expect(ofType(events, 'finish')[0]?.exitCode).toBeUndefined();
  });
});
