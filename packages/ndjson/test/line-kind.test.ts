import { createNdjsonTokenizer, MAX_OUTPUT_LINE_LENGTH, type NdjsonProblem } from '@cursor-stream/ndjson';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { startsLikeJson } from '../src/line-kind.ts';

function problemsOf(text: string): NdjsonProblem[] {
  const tokenizer = createNdjsonTokenizer({ objectsOnly: true });
  return [...tokenizer.feed(text), ...tokenizer.end()].filter(
    (item): item is NdjsonProblem => 'code' in item,
  );
}

describe('non-JSON output lines', () => {
  test('the agent failure line is output, quoted whole as the message', () => {
    const line = "RetriableError: [invalid_argument] unknown option '--system-prompt'";
    const [problem] = problemsOf(`{"type":"user"}\n${line}\n`);
    expect(problem).toMatchObject({ code: 'non-json-output', message: line, line: 2, offset: 16 });
  });

  test('lines that start like JSON but are broken stay invalid-json', () => {
    for (const line of ['{"type":', '[1,', '-x', '42 apples', 'true story', 'null,', '"open']) {
      expect(problemsOf(`${line}\n{"a":1}\n`).map((p) => p.code)).toEqual([
        expect.stringMatching(/^(invalid-json|not-an-object|unterminated-string)$/),
      ]);
    }
  });

  test('words that only begin like a JSON literal are output', () => {
    for (const line of [
      'nothing to do',
      'T: Named models unavailable',
      'failed: 1',
      'trueish',
      '\u001b[31merror',
    ]) {
      expect(problemsOf(`${line}\n`).map((p) => p.code)).toEqual(['non-json-output']);
    }
  });

  test('a long line is quoted up to the bound, marked as cut', () => {
    const line = `Error: ${'x'.repeat(MAX_OUTPUT_LINE_LENGTH * 2)}`;
    const [problem] = problemsOf(`${line}\n`);
    expect(problem?.message).toHaveLength(MAX_OUTPUT_LINE_LENGTH + 1);
    expect(problem?.message.endsWith('…')).toBe(true);
  });

  test('a line is output exactly when it does not start like a JSON text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const line = text.replace(/[\n\r]/g, ' ');
        const first = line.trimStart().replace(/^\uFEFF+/, '')[0];
        if (
          first !== undefined &&
          /[a-zA-Z:!#%&*]/.test(first) &&
          !/^(true|false|null)\b/.test(line.trimStart())
        ) {
          expect(startsLikeJson(line)).toBe(false);
        }
        if (first !== undefined && /[{["\-0-9]/.test(first)) expect(startsLikeJson(line)).toBe(true);
      }),
    );
  });

  // The tokenizer gives a line that does not start like JSON no parse at all: that must lose no record.
  test('every text JSON.parse reads starts like JSON', () => {
    const padding = fc.stringMatching(/^[ \t\r\n\uFEFF]{0,3}$/);
    const text = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.tuple(padding, fc.json(), padding, fc.string({ maxLength: 3 })).map((parts) => parts.join('')),
      fc
        .tuple(padding, fc.constantFrom('true', 'false', 'null', 'tru', 'nul'), fc.string({ maxLength: 3 }))
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(text, (line) => {
        let parses = true;
        try {
          JSON.parse(line);
        } catch {
          parses = false;
        }
        if (parses) expect(startsLikeJson(line)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
