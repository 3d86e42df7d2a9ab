import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type InteractionEvent, type JsonObject, validateDialectRecord } from '@cursor-stream/core';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';
import { describe, expect, test } from 'vitest';
import { normalizeText, ofType } from './support.ts';

/** Real runs of the CLI (see `corpus/captures/SOURCES.md`), read as they were published. */
const CAPTURES = join(CORPUS_DIR, 'captures');
const captureFiles = readdirSync(CAPTURES).filter((file) => file.endsWith('.ndjson'));

function capture(name: string): string {
  return readFileSync(join(CAPTURES, name), 'utf8');
}

describe('the real 2026.09 and 2026.10 captures', () => {
  test('the folder holds them', () => {
    expect(captureFiles.length).toBeGreaterThanOrEqual(6);
  });

  test.each(captureFiles)('every field of %s is one the strict official schema names', (name) => {
    const problems = capture(name)
      .split('\n')
      .flatMap((text, index) => {
        if (text.trim() === '') return [];
        const issues = validateDialectRecord('official', JSON.parse(text) as JsonObject, { strict: true });
        return issues.map((issue) => `${index + 1}: ${issue.pointer} ${issue.message}`);
      });
    expect(problems).toEqual([]);
  });
});

describe('the answer of an interaction_query, under `response` as the CLI writes it since 2026.09', () => {
  /** What each answer says: the query's type and id, the arm and its reason. */
  function answers(name: string): unknown[][] {
    return ofType(normalizeText(capture(name)), 'interaction')
      .filter((event: InteractionEvent) => event.phase === 'response')
      .map(({ queryType, queryId, outcome, reason }) => [queryType, queryId, outcome, reason]);
  }

  test('a plan accepted: its query id and outcome', () => {
    expect(answers('satelle__2026.10.01__16-plan.ndjson')).toEqual([
      ['createPlanRequestQuery', 0, 'success', undefined],
    ]);
  });

  test('a web fetch rejected: the arm directly under the answer, with its reason', () => {
    expect(answers('harness-cli-normalizer__2026.09.15__probe-15-webfetch-rejected.ndjson')).toEqual([
      ['webFetchRequestQuery', 0, 'rejected', 'User Rejected'],
    ]);
  });

  test('a question skipped: the arm inside the answer’s result', () => {
    expect(answers('harness-cli-normalizer__2026.09.15__probe-20-ask-question.ndjson')).toEqual([
      [
        'askQuestionInteractionQuery',
        0,
        'rejected',
        'Questions skipped by the user, continue with the information you already have',
      ],
    ]);
  });

  test('the older `result` form still reads the same', () => {
    const record = (answer: Record<string, unknown>) =>
      JSON.stringify({ type: 'interaction_query', subtype: 'response', query_type: 'q', ...answer });
    const [older, newer] = [
      record({ result: { rejected: { reason: 'no' } } }),
      record({ response: { id: 3, qResponse: { rejected: { reason: 'no' } } } }),
    ].map((line) => ofType(normalizeText(`${line}\n`), 'interaction')[0]);
    expect([older?.outcome, older?.reason]).toEqual(['rejected', 'no']);
    expect([newer?.outcome, newer?.reason, newer?.queryId]).toEqual(['rejected', 'no', 3]);
  });
});

describe('a call the CLI announces only in an interaction_query request', () => {
  test('its completion alone opens and ends it, with the arguments the request gave: no result without its call', () => {
    const events = normalizeText(
      capture('harness-cli-normalizer__2026.09.10__probe-15-websearch-rejected.ndjson'),
    );
    const id = 'tool_a6207dbe-29d4-4cfe-a073-b539a604b17';
    const ofCall = events.filter(
      (event) => (event.type === 'tool-call' || event.type === 'tool-result') && event.toolCallId === id,
    );
    expect(ofCall.map((event) => [event.type, event.loc?.line])).toEqual([
      ['tool-call', 41],
      ['tool-result', 41],
    ]);
    expect(ofCall[0]).toMatchObject({
      toolName: 'web-search',
      input: { searchTerm: 'example.com page title' },
    });
    expect(ofCall[1]).toMatchObject({ status: 'rejected', isError: true });
    expect(ofCall[1]).not.toHaveProperty('input');
  });

  test('a call asked about before it starts is started once, by its own start', () => {
    const events = normalizeText(capture('harness-cli-normalizer__2026.09.15__probe-20-ask-question.ndjson'));
    const starts = ofType(events, 'tool-call');
    const results = ofType(events, 'tool-result');
    expect(starts).toHaveLength(1);
    expect(starts.map((event) => [event.toolCallId, event.loc?.line])).toEqual(
      results.map((event) => [event.toolCallId, 5]),
    );
  });
});

describe('tools the permissions configuration denies (2026.10.01)', () => {
  test('each ends in the arm the CLI names, an error', () => {
    const results = ofType(
      normalizeText(capture('satelle__2026.10.01__16-deny-permissions.ndjson')),
      'tool-result',
    );
    expect(results.map(({ toolName, status, isError }) => [toolName, status, isError])).toEqual([
      ['shell', 'permissionDenied', true],
      ['edit', 'writePermissionDenied', true],
      ['shell', 'permissionDenied', true],
    ]);
  });
});
