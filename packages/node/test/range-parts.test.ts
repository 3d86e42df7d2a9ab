/** The pieces of reading a file in ranges: where cuts are proposed, and positions moved to the file. */

import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shiftEvent } from '../src/ranges/locations.ts';
import {
  findSessionStart,
  MIN_SPLIT_BYTES,
  planSplit,
  RANGE_BYTES,
  rangeBytesFor,
} from '../src/ranges/split-plan.ts';

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

  test('prefers a session start after a record to one after a line of output, and takes that one when alone', async () => {
    const output = 'ActionRequiredError: Named models unavailable\n';
    const session = `${INIT}\n${TOOL_START}\n${RESULT}\n`;
    const afterOutput = `${session}${output}`;
    const path = await file('output-before-init.ndjson', `${afterOutput}${session}${RESULT}\r\n${session}`);
    const fd = openSync(path, 'r');
    try {
      const secondInit = Buffer.byteLength(afterOutput);
      const thirdInit = secondInit + Buffer.byteLength(`${session}${RESULT}\r\n`);
      // The run the output line ends is cut at the next start that follows a record, CR LF or not.
      expect(findSessionStart(fd, 1, thirdInit + 10)).toBe(thirdInit);
      expect(findSessionStart(fd, 1, thirdInit)).toBe(secondInit);
    } finally {
      closeSync(fd);
    }
    // A better start is looked for a few sessions' worth past the first only, not through the whole search.
    const far = `${afterOutput}${session}${`${TOOL_START}\n`.repeat(3000)}${session}`;
    const farPath = await file('output-then-far.ndjson', far);
    const farFd = openSync(farPath, 'r');
    try {
      expect(findSessionStart(farFd, 1, Buffer.byteLength(far))).toBe(Buffer.byteLength(afterOutput));
    } finally {
      closeSync(farFd);
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
    // A JSON document of records: its lines are no records, whatever they start with.
    const records = session.trimEnd().split('\n').join(',\n').repeat(1);
    const bracketed = await file('array.json', `[\n${[records, records, records].join(',\n')}\n]\n`);
    expect(planSplit(bracketed, options)).toBeNull();
    const pretty = await file('pretty.json', `\uFEFF{\n  "type": "system"\n}\n${session.repeat(3)}`);
    expect(planSplit(pretty, options)).toBeNull();
    expect(planSplit(await file('lines.ndjson', session.repeat(3)), options)).not.toBeNull();
  });

  test('aims ranges at an eighth of the split size at most', () => {
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
      failure: { message: 'boom', code: 'unknown', loc: { line: 2, offset: 10 } },
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
