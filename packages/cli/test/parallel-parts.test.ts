/** The CLI's side of reading a file in ranges: the split size it reads, the consumers' results joined. */

import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import {
  createInvalidLineList,
  createInvalidLinesJoin,
  joinInvalidLines,
  MAX_INVALID_LINES_LISTED,
} from '@cursor-stream/inspect/summary';
import { MAX_FINDINGS_LISTED } from '@cursor-stream/inspect/validate';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { joinFindings, keptFindings, type StepFinding } from '../src/commands/validate/range-consumer.ts';
import { SPLIT_BYTES_ENV, splitBytesFrom } from '../src/io/cli-io.ts';

describe('the split size', () => {
  test('is read from the environment when it holds a byte size, else left to the range engine', () => {
    expect(splitBytesFrom({})).toBeUndefined();
    expect(splitBytesFrom({ [SPLIT_BYTES_ENV]: '64m' })).toBe(64 * 1024 * 1024);
    expect(splitBytesFrom({ [SPLIT_BYTES_ENV]: 'lots' })).toBeUndefined();
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
      // As the logs of a folder are joined: one part at a time, the list read on the way left as it was.
      const joined = createInvalidLinesJoin();
      for (const part of parts) {
        const before = joined.json();
        const listedBefore = [...before.invalidLines];
        joined.add(part);
        expect(before.invalidLines).toEqual(listedBefore);
      }
      expect(joined.json()).toEqual(whole.json());
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
