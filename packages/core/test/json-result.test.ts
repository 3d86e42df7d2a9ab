import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reduceSessions } from '@cursor-stream/core';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { ndjson } from '@cursor-stream/test-kit/ndjson';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { normalizeText, ofType } from './support.ts';

/** What `--output-format json` prints: one `result` object, keys in its own order, nothing before it. */
function jsonResult(result: string, sessionId: string, isError = false): Record<string, unknown> {
  return {
    type: 'result',
    subtype: isError ? 'error' : 'success',
    is_error: isError,
    duration_ms: 7147,
    duration_api_ms: 7147,
    result,
    session_id: sessionId,
    request_id: `r-${sessionId}`,
    usage: { inputTokens: 12983, outputTokens: 96, cacheReadTokens: 5957, cacheWriteTokens: 0 },
  };
}

describe('the json print format', () => {
  test('a real capture of lone results reads as whole sessions whose text is the result', () => {
    const text = readFileSync(join(CORPUS_DIR, 'official/output-format-json.ndjson'), 'utf8');
    const sessions = reduceSessions(normalizeText(text));
    expect(sessions.map((s) => [s.status, s.text, s.textMatchesResult])).toEqual([
      ['success', 'OK', true],
      ['success', 'pong', true],
      ['success', 'PONG', true],
    ]);
  });

  test('a lone result opens its session with a start that carries its ids', () => {
    const events = normalizeText(ndjson([jsonResult('pong', 's1')]));
    expect(events.map((event) => event.type)).toEqual(['stream-start', 'text-delta', 'finish']);
    const [start] = ofType(events, 'stream-start');
    expect(start).toMatchObject({ sessionId: 's1', requestId: 'r-s1', loc: { line: 1, offset: 0 } });
  });

  test('a failed lone result has no assistant text: its text is the error', () => {
    const events = normalizeText(ndjson([jsonResult('boom', 's1', true)]));
    expect(ofType(events, 'text-delta')).toEqual([]);
    const [session] = reduceSessions(events);
    expect(session?.status).toBe('error');
  });

  test('a streamed session keeps its own text: the result adds none', () => {
    const streamed = [
      { type: 'system', subtype: 'init', session_id: 's1', model: 'Auto' },
      {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'text', text: 'pong' }] },
        session_id: 's1',
      },
      jsonResult('pong', 's1'),
    ];
    const events = normalizeText(ndjson(streamed));
    expect(events.map((event) => event.type)).toEqual(['stream-start', 'text-delta', 'finish']);
  });

  test.prop([fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 8 })])(
    'any log of lone results gives one session per result, its text the result, with no mismatch',
    (texts) => {
      const log = ndjson(texts.map((text, index) => jsonResult(text, `s${index}`)));
      const sessions = reduceSessions(normalizeText(log));
      expect(sessions.map((session) => session.text)).toEqual(texts);
      expect(
        sessions.every((session) => session.textMatchesResult === true && session.status === 'success'),
      ).toBe(true);
    },
  );
});
