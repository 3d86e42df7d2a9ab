import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { assistantText, normalizeText, ofType, REAL_CORPUS_DIR } from './support.ts';

/** Its author changed `result` to "done" while the assistant messages say more (SOURCES.md). */
const EDITED = 'reifying__cursor-hack__internal_events_testdata_full_session.ndjson';

const streams = readdirSync(REAL_CORPUS_DIR).filter((name) => name.endsWith('.ndjson'));

function resultText(text: string): string | undefined {
  for (const line of text.split('\n')) {
    if (line.includes('"type":"result"')) return (JSON.parse(line) as { result?: string }).result;
  }
  return undefined;
}

describe('real recordings', () => {
  test('the folder holds the recordings', () => {
    expect(streams.length).toBeGreaterThan(10);
  });

  for (const name of streams) {
    const text = readFileSync(join(REAL_CORPUS_DIR, name), 'utf8');
    const events = normalizeText(text);

    test(`${name} gives no invalid-line and exactly one finish`, () => {
      expect(ofType(events, 'invalid-line')).toEqual([]);
      expect(ofType(events, 'finish')).toHaveLength(1);
      expect(events.at(-1)?.type).toBe('finish');
    });

    const expected = resultText(text);
    if (expected !== undefined && name !== EDITED) {
      test(`${name}: the text-deltas joined equal result.result`, () => {
        expect(assistantText(events)).toBe(expected);
        expect(ofType(events, 'finish')[0]?.text).toBe(expected);
      });
    }
  }

  test('the edited fixture really differs, so the exception above is needed', () => {
    const text = readFileSync(join(REAL_CORPUS_DIR, EDITED), 'utf8');
    expect(assistantText(normalizeText(text))).not.toBe(resultText(text));
  });

  test('tool calls in the real recordings pair by their exact, newline-holding ids', () => {
    const name = 'LRM-Teams__coforge__packages_daemon_test_fixtures_cursor-turn-tools.ndjson';
    const events = normalizeText(readFileSync(join(REAL_CORPUS_DIR, name), 'utf8'));
    const results = ofType(events, 'tool-result');
    expect(results).toHaveLength(10);
    expect(results.every((result) => result.toolCallId.includes('\n'))).toBe(true);
    expect(ofType(events, 'finish')[0]?.pendingToolCallIds).toEqual([]);
    const statuses = results.map((result) => `${result.toolName}:${result.status}`);
    expect(statuses).toContain('shell:failure');
    expect(statuses).toContain('read:error');
    expect(results.every((result) => result.durationMs !== undefined && result.durationMs >= 0)).toBe(true);
  });
});
