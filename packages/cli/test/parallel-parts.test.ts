/** The pieces of reading a file in ranges: where cuts are proposed, positions moved, results joined. */

import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createInvalidLineList,
  joinInvalidLines,
  MAX_INVALID_LINES_LISTED,
} from '../src/format/summary-json.ts';
import { joinFindings, keptFindings, type StepFinding } from '../src/parallel/consumers/validate.ts';
import { shiftEvent } from '../src/parallel/locations.ts';
import {
  findSessionStart,
  MIN_SPLIT_BYTES,
  planSplit,
  RANGE_BYTES,
  rangeBytesFor,
  SPLIT_BYTES_ENV,
  splitBytesFrom,
} from '../src/parallel/split-plan.ts';
import { MAX_FINDINGS_LISTED } from '../src/validate/findings.ts';

const INIT = '{"type":"system","subtype":"init","session_id":"s","model":"Auto"}';
const TOOL_START =
  '{"type":"tool_call","subtype":"started","call_id":"c","tool_call":{"readToolCall":{"args":{"path":"a"}}},"session_id":"s"}';
const RESULT = '{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s"}';

let scratch = '';

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-parts-'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function file(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, content);
  return path;
}

describe('the split plan', () => {
  test('proposes a cut at every session start once ranges may be a byte long, and none elsewhere', async () => {
    const session = `${INIT}\n${TOOL_START}\n${RESULT}\n`;
    const path = await file('sessions.ndjson', session.repeat(4));
    const plan = planSplit(path, { jobs: 2, dialect: 'auto', splitBytes: 1 });
    expect(plan?.starts).toEqual([0, 1, 2, 3].map((index) => index * Buffer.byteLength(session)));
    expect(plan?.dialect).toBe('official');
    expect(plan?.endsWithLineFeed).toBe(true);
  });

  test('finds a session start at the very offset asked, across read windows, and within the limit only', async () => {
    const filler = `${'x'.repeat(70_000)}\n`;
    const path = await file('far.ndjson', `${filler}${INIT}\n`);
    const fd = openSync(path, 'r');
    try {
      expect(findSessionStart(fd, filler.length, filler.length + 10)).toBe(filler.length);
      expect(findSessionStart(fd, 1, filler.length + 10)).toBe(filler.length);
      expect(findSessionStart(fd, 1, filler.length)).toBe(-1);
      expect(findSessionStart(fd, filler.length + 1, filler.length + 200)).toBe(-1);
    } finally {
      closeSync(fd);
    }
  });

  test('leaves to one thread what it cannot split or must not', async () => {
    const session = `${INIT}\n${TOOL_START}\n${RESULT}\n`;
    const options = { jobs: 2, dialect: 'auto' as const, splitBytes: 1 };
    const gzipped = await file('log.ndjson.gz', gzipSync(session.repeat(3)));
    const binary = await file('binary.ndjson', Buffer.alloc(1000, 0));
    // Shared records only: nothing in the file says which dialect it is until its end.
    const undetected = await file('shared.ndjson', `${INIT}\n${RESULT}\n`.repeat(3));
    const oneSession = await file('one.ndjson', session);
    expect(planSplit(gzipped, options)).toBeNull();
    expect(planSplit(binary, options)).toBeNull();
    expect(planSplit(undetected, options)).toBeNull();
    expect(planSplit(oneSession, options)).toBeNull();
    expect(planSplit(join(scratch, 'missing.ndjson'), options)).toBeNull();
    expect(planSplit(scratch, options)).toBeNull();
    expect(planSplit(undetected, { ...options, dialect: 'official' })?.dialect).toBe('official');
  });

  test('reads its size from the environment, and aims ranges at an eighth of it at most', () => {
    expect(splitBytesFrom({})).toBe(MIN_SPLIT_BYTES);
    expect(splitBytesFrom({ [SPLIT_BYTES_ENV]: '64m' })).toBe(64 * 1024 * 1024);
    expect(splitBytesFrom({ [SPLIT_BYTES_ENV]: 'lots' })).toBe(MIN_SPLIT_BYTES);
    expect(rangeBytesFor(MIN_SPLIT_BYTES)).toBe(RANGE_BYTES);
    expect(rangeBytesFor(800)).toBe(100);
    expect(rangeBytesFor(1)).toBe(1);
  });
});

describe('positions moved to the file', () => {
  test("a record's events get locations of their own, their failure's too, and a cut record's message its line", () => {
    const shared = { line: 3, offset: 40 };
    const finish: CanonicalEvent = {
      type: 'finish',
      finishReason: 'incomplete',
      isError: false,
      pendingToolCallIds: [],
      failure: { message: 'boom', loc: { line: 2, offset: 10 } },
      loc: shared,
    };
    const start: CanonicalEvent = { type: 'stream-start', loc: shared };
    const cut: CanonicalEvent = {
      type: 'invalid-line',
      code: 'unterminated-string',
      message: 'record ends inside a string; line 7 starts a new record',
      excerpt: '{"a":"b',
      loc: { line: 6, offset: 90 },
    };
    const shift = { lines: 100, bytes: 5000 };
    for (const event of [finish, start, cut]) shiftEvent(event, shift);
    expect(finish.loc).toEqual({ line: 103, offset: 5040 });
    expect(start.loc).toEqual({ line: 103, offset: 5040 });
    expect(finish.type === 'finish' && finish.failure?.loc).toEqual({ line: 102, offset: 5010 });
    expect(shared).toEqual({ line: 3, offset: 40 });
    expect(cut.type === 'invalid-line' && cut.message).toBe(
      'record ends inside a string; line 107 starts a new record',
    );
  });
});

function invalidLine(line: number): CanonicalEvent {
  return {
    type: 'invalid-line',
    code: 'invalid-json',
    message: 'x',
    excerpt: 'x',
    loc: { line, offset: line * 10 },
  };
}

describe('results joined across ranges', () => {
  propertyTest.prop([fc.array(fc.nat(30), { maxLength: 8 })])(
    "summary's invalid lines: the ranges' lists joined read as one list over the whole log",
    (sizes) => {
      const whole = createInvalidLineList();
      let line = 0;
      const parts = sizes.map((size) => {
        const part = createInvalidLineList();
        for (let i = 0; i < size; i += 1) {
          line += 1;
          part.add(invalidLine(line));
          whole.add(invalidLine(line));
        }
        return part.json();
      });
      expect(joinInvalidLines(parts)).toEqual(whole.json());
      const stepwise = parts.reduce((kept, part) => joinInvalidLines([kept, part]), { invalidLines: [] });
      expect(stepwise).toEqual(whole.json());
    },
  );

  test("summary's invalid lines past the bound are counted, wherever the ranges cut them", () => {
    const whole = createInvalidLineList();
    const parts = [6000, 6000, 10].map((size, index) => {
      const part = createInvalidLineList();
      for (let i = 0; i < size; i += 1) {
        const event = invalidLine(index * 10_000 + i + 1);
        part.add(event);
        whole.add(event);
      }
      return part.json();
    });
    const joined = joinInvalidLines(parts);
    expect(joined).toEqual(whole.json());
    expect(joined.invalidLines).toHaveLength(MAX_INVALID_LINES_LISTED);
    expect(joined.invalidLinesOmitted).toBe(2010);
  });

  function finding(step: number, range: number, index: number): StepFinding {
    return { step, finding: { line: range * 1000 + index, offset: 0, code: `r${range}`, message: '' } };
  }

  test("validate's findings come back in one thread's order: a chunk's schema findings before its event findings", () => {
    // Range 0 ends inside chunk 2, where range 1 starts: one thread reads all of chunk 2's records (step 4) before
    // it delivers the chunk's events (step 5).
    const first = { listed: [finding(3, 0, 1), finding(4, 0, 2), finding(5, 0, 3)], omitted: 0 };
    const second = { listed: [finding(4, 1, 1), finding(5, 1, 2), finding(7, 1, 3)], omitted: 0 };
    const joined = joinFindings([first, second]);
    expect(joined.listed.map((found) => found.finding.line)).toEqual([1, 2, 1001, 3, 1002, 1003]);
    expect(joined.omitted).toBe(0);
    expect(keptFindings(joined).listed.map((found) => found.line)).toEqual([1, 2, 1001, 3, 1002, 1003]);
  });

  propertyTest.prop([
    fc.array(fc.array(fc.nat(6), { maxLength: 12 }), { maxLength: 6 }),
    fc.integer({ min: 1, max: 3 }),
  ])("validate's findings joined range by range are those joined all at once", (steps, seed) => {
    // Each range's steps rise; a range may start while the chunk the one before it ended in is being read.
    let floor = 0;
    const parts = steps.map((part, range) => {
      const rising = [...part].sort((a, b) => a - b).map((step) => floor + step);
      floor = Math.max(0, (rising.at(-1) ?? floor) - 1);
      return { listed: rising.map((step, index) => finding(step, range, index)), omitted: range % seed };
    });
    const stepwise = parts.reduce((kept, part) => joinFindings([kept, part]), { listed: [], omitted: 0 });
    expect(stepwise).toEqual(joinFindings(parts));
  });

  test('validate keeps the first findings one thread keeps, and counts the others', () => {
    const many = (range: number, step: number) => ({
      listed: Array.from({ length: MAX_FINDINGS_LISTED }, (_, index) => finding(step, range, index)),
      omitted: 7,
    });
    const joined = joinFindings([many(0, 2), many(1, 3)]);
    expect(joined.listed).toHaveLength(MAX_FINDINGS_LISTED);
    expect(joined.listed.every((found) => found.finding.code === 'r0')).toBe(true);
    expect(joined.omitted).toBe(MAX_FINDINGS_LISTED + 14);
  });
});
