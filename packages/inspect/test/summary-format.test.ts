import type { SessionSummary } from '@cursor-stream/core';
import { finishedSession } from '@cursor-stream/core/sessions';
import {
  createSummaryJsonWriter,
  formatSummaryText,
  type SummaryJson,
  type SummarySessionJson,
  sessionJson,
} from '@cursor-stream/inspect/summary';
import { createPalette } from '@cursor-stream/inspect/terminal';
import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';

const plain = createPalette(false);

function session(overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    sessionId: 'c6b62c6f',
    dialect: 'official',
    model: 'Claude 4 Sonnet',
    status: 'success',
    text: 'I read it.',
    textLength: 10,
    textOmitted: null,
    resultText: 'I read it.',
    textMatchesResult: true,
    toolCalls: [
      {
        toolCallId: 'call_1\nfc_1',
        toolName: 'read',
        status: 'success',
        startLine: 5,
        endLine: 6,
        durationMs: 12,
        orphan: false,
        input: null,
      },
    ],
    counts: { 'stream-start': 1, 'text-delta': 2, 'tool-call': 1, 'tool-result': 1, finish: 1 },
    durationMs: 5234,
    usage: { inputTokens: 1200, outputTokens: 30 },
    failure: null,
    ...overrides,
  };
}

describe('sessionJson', () => {
  test('has exactly the documented keys, in order, with the orphan flag of each tool call', () => {
    const json = sessionJson(finishedSession(session()), null);
    expect(Object.keys(json)).toEqual([
      'sessionId',
      'dialect',
      'model',
      'status',
      'error',
      'text',
      'textLength',
      'textOmitted',
      'resultText',
      'textMatchesResult',
      'toolCalls',
      'toolCallsOmitted',
      'counts',
      'durationMs',
      'usage',
    ]);
    expect(Object.keys(json.toolCalls[0] ?? {})).toEqual([
      'toolCallId',
      'toolName',
      'status',
      'startLine',
      'endLine',
      'durationMs',
      'orphan',
    ]);
  });

  test('a completion without its start is marked orphan', () => {
    const [call] = session().toolCalls;
    if (call === undefined) throw new Error('no call');
    const json = sessionJson(
      finishedSession(session({ toolCalls: [{ ...call, orphan: true, startLine: null }] })),
      null,
    );
    expect(json.toolCalls[0]).toMatchObject({ orphan: true, startLine: null });
  });

  test("a failed session carries the agent's sentence and its line as error", () => {
    const failed = session({
      status: 'error',
      failure: { message: "You've hit your usage limit", code: 'usage-limit', line: 7 },
    });
    expect(sessionJson(finishedSession(failed), null).error).toEqual({
      message: "You've hit your usage limit",
      code: 'usage-limit',
      line: 7,
    });
    expect(sessionJson(finishedSession(session()), null).error).toBeNull();
  });

  test("a session without a dialect takes the stream's", () => {
    expect(sessionJson(finishedSession(session({ dialect: null })), 'python-wrapper').dialect).toBe(
      'python-wrapper',
    );
  });
});

describe('formatSummaryText', () => {
  const summary = (
    sessions: SessionSummary[],
    invalidLines: SummaryJson['invalidLines'] = [],
  ): SummaryJson => ({
    sessions: sessions.map((s) => sessionJson(finishedSession(s), null)),
    invalidLines,
    lines: 10,
    bytes: 2341,
  });

  test('shows a session as a block of fields with a tool table', () => {
    expect(formatSummaryText(summary([session()]), plain)).toEqual([
      'session c6b62c6f',
      '  model   Claude 4 Sonnet (official)',
      '  status  success · in 5.2 s · tokens 1,200 in, 30 out',
      '  text    I read it.',
      '  events  stream-start 1, text-delta 2, tool-call 1, tool-result 1, finish 1',
      '  tools   1 call',
      '    #  tool  status   lines  duration  id',
      '    1  read  success  5-6    12 ms     call_1\\nfc_1',
      '',
      'input 10 lines, 2.3 KB, 1 session, no invalid lines',
    ]);
  });

  test("shows why a failed session failed, in the agent's words, in red on a terminal", () => {
    const failed = session({
      status: 'error',
      failure: {
        message: "RetriableError: [invalid_argument] unknown option '--system-prompt'",
        code: 'unknown-option',
        line: 3,
      },
    });
    expect(formatSummaryText(summary([failed]), plain)).toContain(
      "  error   RetriableError: [invalid_argument] unknown option '--system-prompt' (unknown-option, line 3)",
    );
    const colored = formatSummaryText(summary([failed]), createPalette(true)).join('\n');
    expect(colored).toContain(
      "\u001b[31mRetriableError: [invalid_argument] unknown option '--system-prompt' (unknown-option, line 3)",
    );
    expect(sessionJson(finishedSession(failed), null).error).toEqual({
      message: "RetriableError: [invalid_argument] unknown option '--system-prompt'",
      code: 'unknown-option',
      line: 3,
    });
    expect(formatSummaryText(summary([session()]), plain).some((line) => line.includes('error'))).toBe(false);
  });

  test('points out a result text that differs from the assistant text', () => {
    const lines = formatSummaryText(
      summary([session({ resultText: 'Something else.', textMatchesResult: false })]),
      plain,
    );
    expect(lines).toContain('  result  differs from the text: Something else.');
  });

  test('lists invalid lines by number and code', () => {
    const lines = formatSummaryText(
      summary(
        [session({ status: 'incomplete', toolCalls: [] })],
        [{ line: 3, offset: 400, code: 'truncated' }],
      ),
      plain,
    );
    expect(lines.at(-1)).toBe('input 10 lines, 2.3 KB, 1 session, 1 invalid line: 3 (truncated)');
    expect(lines).toContain('  tools   none');
  });

  test('colors the status on a terminal', () => {
    const lines = formatSummaryText(summary([session({ status: 'error' })]), createPalette(true));
    expect(lines.find((line) => line.includes('status'))).toContain('\u001b[31merror\u001b[39m');
  });
});

describe('createSummaryJsonWriter', () => {
  const summary = (sessionId: string): SessionSummary => ({
    sessionId,
    dialect: 'official',
    model: null,
    status: 'success',
    text: 'line\none',
    textLength: 8,
    textOmitted: null,
    resultText: 'line\none',
    textMatchesResult: true,
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

  propTest.prop([
    fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 4 }),
    // The document's own keys are names: a key that reads as an index would be ordered before `sessions`.
    fc.dictionary(
      fc.string().map((key) => `k${key}`),
      fc.jsonValue(),
    ),
  ])(
    'writes any sessions and any rest as JSON.stringify prints the whole document',
    async (sessions, rest) => {
      const parts: string[] = [];
      const writer = createSummaryJsonWriter(async (text) => {
        parts.push(text);
      });
      // The writer's indentation does not depend on what a session holds: any JSON object stands for one.
      for (const session of sessions) await writer.session(session as unknown as SummarySessionJson);
      const tail = { ...rest, lines: 1 } as unknown as Omit<SummaryJson, 'sessions'>;
      await writer.end(tail);
      expect(parts.join('')).toBe(`${JSON.stringify({ sessions, ...tail }, null, 2)}\n`);
    },
  );
});
