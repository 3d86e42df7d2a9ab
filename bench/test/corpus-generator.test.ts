import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CanonicalEvent, createNormalizer } from '@cursor-stream/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildSession,
  createRandom,
  DIALECT_WRITERS,
  generateCorpus,
  officialRecords,
  PROFILE_NAMES,
  PROFILES,
  writeCorpus,
} from '../../corpus/generator/index.ts';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'corpus-generator-test-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Reads NDJSON whose records may span physical lines: a raw LF only ever replaces a `\n` escape. */
function parseJoiningRawNewlines(text: string): unknown[] {
  const values: unknown[] = [];
  let pending: string | undefined;
  for (const line of text.split('\n').slice(0, -1)) {
    pending = pending === undefined ? line : `${pending}\\n${line}`;
    try {
      values.push(JSON.parse(pending));
      pending = undefined;
    } catch {
      // The line ended inside a string: the next physical line continues the record.
    }
  }
  expect(pending).toBeUndefined();
  return values;
}

function textOf(chunks: Generator<string, unknown>): string {
  let text = '';
  for (const chunk of chunks) text += chunk;
  return text;
}

describe('the corpus generator', () => {
  it('writes the same bytes for the same seed, and other bytes for another seed', async () => {
    const options = { seed: 42, targetBytes: 300_000 };
    const first = await writeCorpus(join(directory, 'a.ndjson'), options);
    const second = await writeCorpus(join(directory, 'b.ndjson'), options);
    await writeCorpus(join(directory, 'c.ndjson'), { ...options, seed: 43 });
    const bytes = (name: string) => readFileSync(join(directory, name));
    expect(bytes('a.ndjson').equals(bytes('b.ndjson'))).toBe(true);
    expect(bytes('a.ndjson').equals(bytes('c.ndjson'))).toBe(false);
    expect(second).toEqual(first);
    expect(first.bytes).toBe(bytes('a.ndjson').length);
    expect(first.bytes).toBeGreaterThanOrEqual(options.targetBytes);
  });

  it('writes raw line breaks that parse back to exactly the values of the clean corpus', () => {
    const options = { seed: 5, targetBytes: 300_000, profile: 'parallel-tools' } as const;
    const clean = textOf(generateCorpus(options));
    const rawChunks = generateCorpus({ ...options, rawNewlines: 1 });
    let raw = '';
    let step = rawChunks.next();
    while (step.done !== true) {
      raw += step.value;
      step = rawChunks.next();
    }
    const summary = step.value;
    expect(summary.rawNewlineRecords).toBeGreaterThan(0);
    expect(summary.physicalLines).toBeGreaterThan(summary.records);
    expect(raw.split('\n').length - 1).toBe(summary.physicalLines);
    const cleanValues = clean
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line) as unknown);
    expect(parseJoiningRawNewlines(raw)).toEqual(cleanValues);
  });

  it.each(PROFILE_NAMES)('writes well-formed official sessions with the %s profile', (profile) => {
    const records = textOf(generateCorpus({ seed: 9, targetBytes: 100_000, profile }))
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ type: 'system', subtype: 'init' });
    expect(records.at(-1)).toMatchObject({ type: 'result', subtype: 'success', is_error: false });
    const open = new Set<unknown>();
    for (const record of records) {
      if (record.type !== 'tool_call') continue;
      if (record.subtype === 'started') open.add(record.call_id);
      else expect(open.delete(record.call_id)).toBe(true);
    }
    expect(open.size).toBe(0);
  });

  it.each([
    [0, 'every assistant record'],
    [1, 'the last, whole-text form of each partial-output message'],
  ])('ends a session (partial output share %d) with a result equal to %s, concatenated', (share) => {
    const profile = { ...PROFILES.small, partialOutputShare: share };
    const records = [
      ...officialRecords(buildSession(createRandom(2), profile)),
    ] as unknown as AssistantRecord[];
    // Under partial output only the closing copy of a message lacks `timestamp_ms`.
    const texts = records
      .filter((record) => record.type === 'assistant' && (share === 0 || record.timestamp_ms === undefined))
      .map((record) => record.message?.content[0]?.text ?? '');
    expect(records.at(-1)?.result).toBe(texts.join(''));
  });
});

/** The canonical events of a stream (auto-detected), without `loc`, and the dialect detected. */
function normalized(text: string): { dialect: string | undefined; events: CanonicalEvent[] } {
  const normalizer = createNormalizer();
  const events = [...normalizer.feed(text), ...normalizer.end()].map(
    ({ loc: _loc, ...rest }) => rest as CanonicalEvent,
  );
  return { dialect: normalizer.dialect, events };
}

/**
 * What the Python wrapper's records cannot carry of an official session: it has no result arms, only
 * `success: true | false`, so a tool result with any status but `success` reads back as `failure`.
 */
function asWrapperReadsIt(event: CanonicalEvent): CanonicalEvent {
  if (event.type !== 'tool-result' || event.status === 'success') return event;
  return { ...event, status: 'failure' };
}

describe('the corpus generator in other dialects', () => {
  const options = { seed: 4, targetBytes: 400_000, profile: 'parallel-tools' } as const;
  const official = normalized(textOf(generateCorpus(options)));

  it('knows every built-in dialect', () => {
    expect([...DIALECT_WRITERS.keys()]).toEqual(['official', 'python-wrapper', 'payload-envelope']);
  });

  it("writes payload-envelope records that give the official stream's events, apart from loc", () => {
    const envelope = normalized(textOf(generateCorpus({ ...options, dialect: 'payload-envelope' })));
    expect(envelope.dialect).toBe('payload-envelope');
    expect(envelope.events).toEqual(official.events);
  });

  it('writes python-wrapper records that give the same events, apart from loc and result arms', () => {
    const wrapper = normalized(textOf(generateCorpus({ ...options, dialect: 'python-wrapper' })));
    expect(wrapper.dialect).toBe('python-wrapper');
    const armed = official.events.filter(
      (event) => event.type === 'tool-result' && !['success', 'failure'].includes(event.status),
    );
    // The profile writes error and rejected arms, so the difference is really exercised.
    expect(armed.length).toBeGreaterThan(0);
    expect(wrapper.events).toEqual(official.events.map(asWrapperReadsIt));
  });

  it('writes the same bytes for the same seed in another dialect', () => {
    const write = () =>
      textOf(generateCorpus({ ...options, targetBytes: 50_000, dialect: 'python-wrapper' }));
    expect(write()).toBe(write());
  });
});

interface AssistantRecord {
  type: string;
  timestamp_ms?: number;
  result?: string;
  message?: { content: { text: string }[] };
}
