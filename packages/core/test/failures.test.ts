import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reduceSessions } from '@cursor-stream/core';
import { classifyFailure, FAILURE_CLASSES, FAILURE_CODES } from '@cursor-stream/core/failures';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { normalizeText, ofType } from './support.ts';

function captured(name: string): string {
  return readFileSync(join(CORPUS_DIR, 'captures', name), 'utf8');
}

/**
 * One real sentence per class, as the CLI (or, for `flagged`, the service behind it) wrote it, and where it was seen.
 * The two stderr captures are files of `corpus/captures`; the others are quoted from public logs and wrappers' tests.
 */
const REAL_SENTENCES: readonly (readonly [string, string, string])[] = [
  [
    'trust-required',
    captured('harness-cli-normalizer__2026.09.15__trust-01.stderr.txt'),
    'CLI 2026.09.15 stderr',
  ],
  [
    'auth',
    "Error: Authentication required. Please run 'agent login' first.",
    'a runner test quoting the CLI',
  ],
  [
    'model-unavailable',
    captured('satelle__2026.10.01__1g-fail.stderr.excerpt.txt'),
    'CLI 2026.10.01 stderr, --model no-such-model',
  ],
  [
    'model-unavailable',
    'ActionRequiredError: Named models unavailable Free plans can only use Auto. Upgrade your plan or remove --model to use Auto.',
    'CLI 2026.08.11, a free plan',
  ],
  [
    'usage-limit',
    'Set a Spend Limit to continue with Auto. Your usage limits will reset when your monthly cycle ends on 8/30/2026.',
    'measured 2026-08-23',
  ],
  [
    'usage-limit',
    "ActionRequiredError: You've hit your usage limit You've saved $12 on API model usage this month with Pro. Switch to a different model or set a Spend Limit to continue with Auto. Your usage limits will reset when your monthly cycle ends on 9/30/2026.",
    'an adapter test quoting an incident, 2026-09',
  ],
  [
    'rate-limit',
    'ConnectError: [resource_exhausted] Rate limit exceeded, please try later',
    'a wrapper test',
  ],
  [
    'unknown-option',
    "RetriableError: [invalid_argument] unknown option '--system-prompt'",
    'CLI 2026.10.01, a hidden flag the server rejects',
  ],
  [
    'unknown-option',
    'RetriableError: [invalid_argument] Workspace context exclusion is not allowed for this user, team, or selected model',
    'CLI 2026.10.01, --exclude-workspace-context',
  ],
  [
    'flagged',
    'Your request has been blocked as our system has detected suspicious activity from your account/ip address. If you believe this is a mistake, please contact us at hi@cursor.com.',
    "Cursor's service, quoted in public bug reports",
  ],
  [
    'network',
    'T: [internal] Failed to run step, exceeded max retries',
    'CLI 2026.05 on Windows, after reconnects',
  ],
  ['cancelled', 'the turn stopped: cancelled', "ACP's `cancelled` stop reason, as the ACP dialect words it"],
  ['cancelled', 'the run ended with status CANCELLED', "`@cursor/sdk`'s status, as its dialect words it"],
  ['unknown', 'The agent reported an error without a message.', 'no sentence at all'],
  [
    'unknown',
    'ConnectError: [canceled] This operation was cancelled',
    'a service that cancels is no client that did',
  ],
];

describe('failure classes', () => {
  test.each(REAL_SENTENCES)('%s: a real sentence (%#)', (code, sentence) => {
    expect(classifyFailure(sentence)).toBe(code);
  });

  test('every class has a real sentence, and the table lists every code but unknown once', () => {
    expect(new Set(REAL_SENTENCES.map(([code]) => code))).toEqual(new Set(FAILURE_CODES));
    const tried = FAILURE_CLASSES.map((entry) => entry.code);
    expect(tried.toSorted()).toEqual(FAILURE_CODES.filter((code) => code !== 'unknown').toSorted());
  });

  test("each class's documented sentences read as that class", () => {
    for (const entry of FAILURE_CLASSES) {
      for (const sentence of entry.sentences)
        expect([entry.code, classifyFailure(sentence)]).toEqual([entry.code, entry.code]);
    }
  });

  test('a plan refusal sent with the rate-limit code is a plan refusal, not a rate limit', () => {
    expect(
      classifyFailure(
        'ConnectError: [resource_exhausted] ERROR_RATE_LIMITED_CHANGEABLE Named models unavailable',
      ),
    ).toBe('model-unavailable');
  });

  propTest.prop([fc.string({ maxLength: 300 })])('any text has exactly one class of the table', (text) => {
    expect(FAILURE_CODES).toContain(classifyFailure(text));
  });
});

describe('finish.failure.code', () => {
  test('a run cut off after the server rejects a flag: the class of its last output line', () => {
    const log = [
      '{"type":"system","subtype":"init","session_id":"s1","model":"Auto"}',
      '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"session_id":"s1"}',
      '{"type":"connection","subtype":"reconnecting","attempt":1,"endpoint_url":"https://agentn.global.api5.cursor.sh","session_id":"s1"}',
      "RetriableError: [invalid_argument] unknown option '--system-prompt'",
      '',
    ].join('\n');
    const [finish] = ofType(normalizeText(log), 'finish');
    expect(finish?.failure).toEqual({
      message: "RetriableError: [invalid_argument] unknown option '--system-prompt'",
      code: 'unknown-option',
      loc: { line: 4, offset: expect.any(Number) },
    });
  });

  test.each([
    [
      'the stack trace under the error',
      [
        'ConnectError: [unavailable] upstream connect error',
        '    at Object.<anonymous> (/home/u/.local/share/cursor-agent/index.js:1:2345)',
        '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      ],
      'ConnectError: [unavailable] upstream connect error',
    ],
    [
      'an update notice after the error',
      [
        'ActionRequiredError: Named models unavailable Free plans can only use Auto.',
        'A new version of Cursor Agent is available. Run `agent update` to update.',
      ],
      'ActionRequiredError: Named models unavailable Free plans can only use Auto.',
    ],
    [
      'a line in no words the CLI fails with after one in such words',
      ["RetriableError: [invalid_argument] unknown option '--system-prompt'", 'exit=1'],
      "RetriableError: [invalid_argument] unknown option '--system-prompt'",
    ],
  ])('a run cut off: its reason is the line that says why, not %s', (_what, output, why) => {
    const log = [
      '{"type":"system","subtype":"init","session_id":"s1","model":"Auto"}',
      '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"session_id":"s1"}',
      ...output,
      '',
    ].join('\n');
    const [finish] = ofType(normalizeText(log), 'finish');
    expect(finish?.failure).toMatchObject({ message: why, loc: { line: 3 } });
  });

  test('a failed run of one result after another run: its error opens with it, and is its failure', () => {
    // Two `--output-format json` runs in one log: a result each, no stream before them.
    const log = [
      '{"type":"result","subtype":"success","is_error":false,"result":"pong","session_id":"s-1","request_id":"rq1"}',
      '{"type":"result","subtype":"error","is_error":true,"result":"You have hit your usage limit","session_id":"s-2","request_id":"rq2"}',
      '',
    ].join('\n');
    const events = normalizeText(log);
    expect(events.map((event) => `${event.type} ${event.sessionId}`)).toEqual([
      'stream-start s-1',
      'text-delta s-1',
      'finish s-1',
      'stream-start s-2',
      'error s-2',
      'finish s-2',
    ]);
    const sessions = reduceSessions(events);
    expect(sessions.map((session) => [session.sessionId, session.status, session.counts.error ?? 0])).toEqual(
      [
        ['s-1', 'success', 0],
        ['s-2', 'error', 1],
      ],
    );
    expect(ofType(events, 'finish')[1]?.failure).toMatchObject({ code: 'usage-limit', loc: { line: 2 } });
  });

  test('a result written twice is one run: the repeat is said, and its tokens counted once', () => {
    const result =
      '{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"s","request_id":"rq","usage":{"inputTokens":10,"outputTokens":2}}';
    const log = [
      '{"type":"system","subtype":"init","session_id":"s","model":"Auto"}',
      result,
      result,
      '',
    ].join('\n');
    const events = normalizeText(log);
    expect(events.map((event) => event.type)).toEqual(['stream-start', 'finish', 'status']);
    expect(events[2]).toMatchObject({ status: 'repeated-result', loc: { line: 3 }, sessionId: 's' });
    const sessions = reduceSessions(events);
    expect(sessions.map((session) => [session.sessionId, session.usage])).toEqual([
      ['s', { inputTokens: 10, outputTokens: 2 }],
    ]);
    // Another request's result after it is another run, as before.
    const another = normalizeText(`${log}${result.replace('"rq"', '"rq2"')}\n`);
    expect(reduceSessions(another)).toHaveLength(2);
  });

  test('a failed result with its own text: the class of that text', () => {
    const log = [
      '{"type":"system","subtype":"init","session_id":"s2"}',
      '{"type":"result","subtype":"error","is_error":true,"result":"You\'ve hit your free requests limit","session_id":"s2"}',
      '',
    ].join('\n');
    expect(ofType(normalizeText(log), 'finish')[0]?.failure?.code).toBe('usage-limit');
  });

  test.each([
    ['satelle__2026.10.01__1g-fail.stderr.excerpt.txt', 'model-unavailable'],
    ['harness-cli-normalizer__2026.09.15__trust-01.stderr.txt', 'trust-required'],
  ])(
    'a run that failed before its first record (%s, stderr with stdout) is one failed session',
    (name, code) => {
      const events = normalizeText(captured(name));
      expect(ofType(events, 'stream-start')).toHaveLength(1);
      const [finish, ...more] = ofType(events, 'finish');
      expect(more).toEqual([]);
      expect(finish).toMatchObject({ finishReason: 'incomplete', failure: { code } });
    },
  );

  test('plain text, or a failure sentence after a whole session, makes no session of its own', () => {
    expect(ofType(normalizeText('hello\nthis is no log\n'), 'stream-start')).toEqual([]);
    const session = [
      '{"type":"system","subtype":"init","session_id":"s3"}',
      '{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s3"}',
      'Error: Connection failed. Check your internet connection.',
      '',
    ].join('\n');
    expect(ofType(normalizeText(session), 'finish').map((finish) => finish.sessionId)).toEqual(['s3']);
  });
});
