import {
  type CanonicalEvent,
  createSessionReducer,
  reduceSessions,
  type ToolCallEvent,
  type ToolResultEvent,
} from '@cursor-stream/core';
import { ARM_RESULTS, canonicalLog } from '@cursor-stream/test-kit/canonical-sessions';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, test as it } from 'vitest';
import { normalizeText } from './support.ts';

function call(id: string, line: number, toolName = 'shell'): ToolCallEvent {
  return {
    type: 'tool-call',
    toolCallId: id,
    toolName,
    providerToolName: `${toolName}ToolCall`,
    input: {},
    loc: { line, offset: 0 },
  };
}
function result(id: string, line: number, status = 'success', toolName = 'shell'): ToolResultEvent {
  return {
    type: 'tool-result',
    toolCallId: id,
    toolName,
    providerToolName: `${toolName}ToolCall`,
    status,
    isError: status !== 'success',
    output: {},
    durationMs: line * 10,
    loc: { line, offset: 0 },
  };
}

describe('session reducer', () => {
  test('pairs interleaved and out-of-order completions by id, keeps orphans and leaves open calls pending', () => {
    const events: CanonicalEvent[] = [
      { type: 'stream-start', sessionId: 's', model: 'Auto' },
      call('a', 2),
      call('b', 3),
      result('b', 4, 'failure'),
      { ...result('x', 5, 'rejected', 'mcp'), input: { server: 'jira' } },
      call('c', 6),
      result('a', 7),
    ];
    const [session] = reduceSessions(events, { dialect: 'official' });
    expect(session?.toolCalls).toEqual([
      {
        toolCallId: 'a',
        toolName: 'shell',
        status: 'success',
        startLine: 2,
        endLine: 7,
        durationMs: 70,
        orphan: false,
        input: null,
      },
      {
        toolCallId: 'b',
        toolName: 'shell',
        status: 'failure',
        startLine: 3,
        endLine: 4,
        durationMs: 40,
        orphan: false,
        input: null,
      },
      {
        toolCallId: 'x',
        toolName: 'mcp',
        status: 'rejected',
        startLine: null,
        endLine: 5,
        durationMs: 50,
        orphan: true,
        input: { server: 'jira' },
      },
      {
        toolCallId: 'c',
        toolName: 'shell',
        status: 'pending',
        startLine: 6,
        endLine: null,
        durationMs: null,
        orphan: false,
        input: null,
      },
    ]);
    expect(session).toMatchObject({
      sessionId: 's',
      dialect: 'official',
      model: 'Auto',
      status: 'incomplete',
    });
  });

  test('a completion before its start is paired once the start arrives', () => {
    const [session] = reduceSessions([result('a', 2), call('a', 3)]);
    expect(session?.toolCalls).toMatchObject([
      { toolCallId: 'a', status: 'success', startLine: 3, endLine: 2, orphan: false },
    ]);
  });

  test('the same start or completion twice is one call', () => {
    const [session] = reduceSessions([call('a', 1), call('a', 2), result('a', 3), result('a', 4, 'error')]);
    expect(session?.toolCalls).toEqual([
      {
        toolCallId: 'a',
        toolName: 'shell',
        status: 'success',
        startLine: 1,
        endLine: 3,
        durationMs: 30,
        orphan: false,
        input: null,
      },
    ]);
    expect(session?.counts).toEqual({ 'tool-call': 2, 'tool-result': 2 });
  });

  test('a start after its call completed is another call of the same id, with its own outcome', () => {
    const [session] = reduceSessions([
      call('c1', 1),
      result('c1', 2),
      call('c1', 3),
      result('c1', 4, 'failure'),
    ]);
    expect(
      session?.toolCalls.map(({ toolCallId, status, startLine, endLine }) => [
        toolCallId,
        status,
        startLine,
        endLine,
      ]),
    ).toEqual([
      ['c1', 'success', 1, 2],
      ['c1', 'failure', 3, 4],
    ]);
  });

  test('a normalized log of two sessions gives two summaries with their text, result and usage', () => {
    const init = (id: string) => ({ type: 'system', subtype: 'init', session_id: id, model: 'Auto' });
    const say = (text: string) => ({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text }] },
    });
    const records = [
      init('one'),
      say('Hi.'),
      {
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: 'Hi.',
        duration_ms: 5,
        usage: { inputTokens: 1 },
      },
      init('two'),
      say('Bye'),
    ];
    const sessions = reduceSessions(normalizeText(ndjson(records)));
    expect(
      sessions.map(({ sessionId, status, text, resultText, durationMs, usage }) => ({
        sessionId,
        status,
        text,
        resultText,
        durationMs,
        usage,
      })),
    ).toEqual([
      {
        sessionId: 'one',
        status: 'success',
        text: 'Hi.',
        resultText: 'Hi.',
        durationMs: 5,
        usage: { inputTokens: 1 },
      },
      {
        sessionId: 'two',
        status: 'incomplete',
        text: 'Bye',
        resultText: null,
        durationMs: null,
        usage: null,
      },
    ]);
    expect(JSON.parse(JSON.stringify(sessions))).toEqual(sessions);
  });

  test('sessions() includes the open session and returns copies', () => {
    const reducer = createSessionReducer();
    reducer.push({ type: 'text-delta', text: 'a' });
    const before = reducer.sessions();
    reducer.push({ type: 'text-delta', text: 'b' });
    expect(before[0]?.text).toBe('a');
    expect(reducer.sessions()[0]?.text).toBe('ab');
  });

  test.prop([
    canonicalLog({ tools: [['shell', 'shellToolCall']], toolResult: ARM_RESULTS, modelCallIds: true }),
  ])(
    'any log gives one summary per finish, counts that add up, and pending calls exactly as the finish lists them',
    (events) => {
      const sessions = reduceSessions(events);
      const finishes = events.filter((event) => event.type === 'finish');
      expect(sessions).toHaveLength(finishes.length);
      const counted = sessions.reduce(
        (sum, s) => sum + Object.values(s.counts).reduce((a, b) => a + (b ?? 0), 0),
        0,
      );
      expect(counted).toBe(events.length);
      sessions.forEach((session, index) => {
        const finish = finishes[index];
        const pending = session.toolCalls.filter((c) => c.status === 'pending').map((c) => c.toolCallId);
        expect(finish?.type === 'finish' ? finish.pendingToolCallIds : undefined).toEqual(pending);
        expect(session.status).toBe(
          finish?.type === 'finish' && finish.finishReason === 'stop'
            ? 'success'
            : finish?.type === 'finish' && finish.finishReason === 'error'
              ? 'error'
              : 'incomplete',
        );
      });
    },
  );
});

describe('lines that belong to no session', () => {
  test('a log of noise only gives no session, and noise before a session is not one', () => {
    const noise = { type: 'invalid-line', code: 'invalid-json', message: 'x', excerpt: 'x' } as const;
    expect(reduceSessions([noise, noise])).toEqual([]);
    const sessions = reduceSessions([noise, { type: 'stream-start', sessionId: 's' }]);
    expect(sessions.map((session) => session.sessionId)).toEqual(['s']);
  });

  test("a session without an id is not named by the next run's preamble after its finish", () => {
    // A CLI run that names no session, then an ACP client's notices before its next session starts.
    const status = { type: 'status', kind: 'compacting', sessionId: 'acp-1' } as const;
    const sessions = reduceSessions([
      { type: 'stream-start' },
      { type: 'finish', finishReason: 'stop', isError: false, pendingToolCallIds: [] },
      status,
      { type: 'stream-start', sessionId: 'acp-1' },
    ]);
    expect(sessions.map((session) => session.sessionId)).toEqual([null, 'acp-1']);
  });
});

describe('the assistant text, bounded', () => {
  const finish = (text?: string): CanonicalEvent => ({
    type: 'finish',
    finishReason: 'stop',
    isError: false,
    pendingToolCallIds: [],
    ...(text === undefined ? {} : { text }),
  });

  test.prop([
    fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.constant('😀')), { maxLength: 25 }),
    fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
    fc.nat(10),
    fc.nat(10),
    fc.boolean(),
  ])(
    'keeps head and tail of the whole text, says what it left out, and compares the whole with the result',
    (pieces, extra, head, tail, sameResult) => {
      const whole = pieces.join('');
      const resultText = sameResult ? whole : `${whole}${extra ?? ''}`;
      const events: CanonicalEvent[] = [
        { type: 'stream-start', sessionId: 's' },
        ...pieces.map((text): CanonicalEvent => ({ type: 'text-delta', text })),
        finish(resultText),
      ];
      const [session] = reduceSessions(events, { textHeadLength: head, textTailLength: tail });
      const [unbounded] = reduceSessions(events, { textHeadLength: Number.POSITIVE_INFINITY });
      expect(unbounded?.text).toBe(whole);
      expect(unbounded?.textOmitted).toBeNull();
      expect(session?.textLength).toBe(whole.length);
      expect(session?.textMatchesResult).toBe(resultText === whole);
      const omitted = session?.textOmitted ?? null;
      if (whole.length <= head + tail) {
        expect([session?.text, omitted]).toEqual([whole, null]);
        return;
      }
      if (omitted === null) throw new Error('a long text kept whole');
      const kept = session?.text ?? '';
      expect(kept.length + omitted.length).toBe(whole.length);
      expect(kept.slice(0, omitted.at)).toBe(whole.slice(0, omitted.at));
      expect(kept.slice(omitted.at)).toBe(whole.slice(omitted.at + omitted.length));
      expect(omitted.at).toBeLessThanOrEqual(head);
      expect(kept.length - omitted.at).toBeLessThanOrEqual(tail);
    },
  );

  it('a text within the default bound is whole, as it always was', () => {
    const text = 'x'.repeat(131_072);
    const [session] = reduceSessions([{ type: 'stream-start' }, { type: 'text-delta', text }, finish(text)]);
    expect(session).toMatchObject({ text, textLength: 131_072, textOmitted: null, textMatchesResult: true });
  });

  it('past the default bound, the first and last 65,536 units are kept and the result still compared', () => {
    const text = `${'a'.repeat(100_000)}${'b'.repeat(100_000)}`;
    const events = (result: string): CanonicalEvent[] => [
      { type: 'stream-start' },
      { type: 'text-delta', text: text.slice(0, 150_000) },
      { type: 'text-delta', text: text.slice(150_000) },
      finish(result),
    ];
    const [same] = reduceSessions(events(text));
    expect(same?.text).toBe(`${'a'.repeat(65_536)}${'b'.repeat(65_536)}`);
    expect(same?.textOmitted).toEqual({ at: 65_536, length: 200_000 - 131_072 });
    expect(same?.textMatchesResult).toBe(true);
    const [different] = reduceSessions(events(`${text.slice(0, 99_999)}b${text.slice(100_000)}`));
    expect(different?.textMatchesResult).toBe(false);
  });

  it('a turn past what one string can hold (512 MiB) is summarized without a RangeError', () => {
    // One 1 MiB piece, 513 times: the joined text would be longer than V8's longest string.
    const piece = 'y'.repeat(1 << 20);
    const reducer = createSessionReducer({ textDigest: null });
    reducer.push({ type: 'stream-start', sessionId: 's' });
    for (let index = 0; index < 513; index++) reducer.push({ type: 'text-delta', text: piece });
    reducer.push(finish('short'));
    const [session] = reducer.sessions();
    expect(session?.textLength).toBe(513 * (1 << 20));
    expect(session?.text.length).toBe(131_072);
    expect(session?.textOmitted).toEqual({ at: 65_536, length: 513 * (1 << 20) - 131_072 });
    // Compared by length alone, with no digest: a different length is a different text.
    expect(session?.textMatchesResult).toBe(false);
  });

  it("the open session's summary shows the text so far, and later text goes on after it", () => {
    const reducer = createSessionReducer({ textHeadLength: 2, textTailLength: 2 });
    reducer.push({ type: 'stream-start' });
    reducer.push({ type: 'text-delta', text: 'abcdef' });
    expect(reducer.sessions()[0]).toMatchObject({
      text: 'abef',
      textLength: 6,
      textOmitted: { at: 2, length: 2 },
    });
    reducer.push({ type: 'text-delta', text: 'gh' });
    expect(reducer.sessions()[0]).toMatchObject({
      text: 'abgh',
      textLength: 8,
      textOmitted: { at: 2, length: 4 },
    });
  });
});
