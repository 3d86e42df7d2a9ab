import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CORPUS_DIR, OWN_STREAMS, REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { describe, expect, test } from 'vitest';
import { assistantText, normalizeText, ofType } from './support.ts';

/** Its author changed `result` to "done" while the assistant messages say more (SOURCES.md). */
const EDITED = 'reifying__cursor-hack__internal_events_testdata_full_session.ndjson';

/** The repository's recordings of the real shapes, then the real recordings when they are beside it. */
const streams = [...OWN_STREAMS, ...REAL_CORPUS.ndjsonFiles()];

function resultText(text: string): string | undefined {
  for (const line of text.split('\n')) {
    if (line.includes('"type":"result"')) return (JSON.parse(line) as { result?: string }).result;
  }
  return undefined;
}

describe('recordings of the real shapes', () => {
  test('the folders hold the recordings', () => {
    expect(streams.length).toBeGreaterThanOrEqual(OWN_STREAMS.length + (REAL_CORPUS.present ? 10 : 0));
  });

  for (const path of streams) {
    const name = basename(path);
    const text = readFileSync(path, 'utf8');
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

  test('parallel calls pair by their exact, newline-holding ids, whatever order they complete in', () => {
    const path = join(CORPUS_DIR, 'official/parallel-tools-out-of-order.ndjson');
    const events = normalizeText(readFileSync(path, 'utf8'));
    const starts = ofType(events, 'tool-call').map((call) => call.toolCallId);
    const results = ofType(events, 'tool-result');
    expect(results).toHaveLength(6);
    expect(results.map((result) => result.toolCallId)).not.toEqual(starts);
    expect(new Set(results.map((result) => result.toolCallId))).toEqual(new Set(starts));
    expect(results.every((result) => result.toolCallId.includes('\n'))).toBe(true);
    expect(ofType(events, 'finish')[0]?.pendingToolCallIds).toEqual([]);
    expect(results.map((result) => `${result.toolName}:${result.status}`).sort()).toEqual([
      'edit:rejected',
      'mcp:rejected',
      'read:error',
      'read:success',
      'shell:failure',
      'shell:success',
    ]);
    expect(results.every((result) => result.durationMs !== undefined && result.durationMs >= 0)).toBe(true);
  });
});

describe.skipIf(!REAL_CORPUS.present)(`real recordings ${REAL_CORPUS.needs}`, () => {
  const real = (name: string) => readFileSync(join(REAL_CORPUS.path, name), 'utf8');

  test('the edited fixture really differs, so the exception above is needed', () => {
    const text = real(EDITED);
    expect(assistantText(normalizeText(text))).not.toBe(resultText(text));
  });

  test('tool calls in the real recordings pair by their exact, newline-holding ids', () => {
    const events = normalizeText(
      real('LRM-Teams__coforge__packages_daemon_test_fixtures_cursor-turn-tools.ndjson'),
    );
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
