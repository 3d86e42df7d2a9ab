import { foreignLogsFields, MAX_FOREIGN_LOGS_LISTED } from '@cursor-stream/inspect/foreign-logs';
import { describe, expect, test } from 'vitest';

const foreign = (index: number) => ({
  code: 'foreign-format',
  path: `logs/${index}.jsonl`,
  line: index + 1,
  message: `line ${index + 1}: this looks like a Claude Code stream-json log, not cursor-agent; left out`,
});

describe('foreignLogsFields', () => {
  test('lists the foreign-format problems only, and no field when there is none', () => {
    const gzip = { code: 'bad-gzip', path: 'a.gz', message: 'gzip data ends early' };
    expect(foreignLogsFields([gzip])).toEqual({});
    expect(foreignLogsFields([gzip, foreign(0)])).toEqual({
      foreignLogs: [{ file: 'logs/0.jsonl', line: 1, message: foreign(0).message }],
    });
  });

  test('a problem of standard input or of no line is still listed', () => {
    const { path: _path, line: _line, ...stdin } = foreign(0);
    expect(foreignLogsFields([stdin]).foreignLogs).toEqual([
      { file: '<stdin>', line: null, message: stdin.message },
    ]);
  });

  test('lists at most the cap and counts the rest', () => {
    const problems = Array.from({ length: MAX_FOREIGN_LOGS_LISTED + 7 }, (_, index) => foreign(index));
    const fields = foreignLogsFields(problems);
    expect(fields.foreignLogs).toHaveLength(MAX_FOREIGN_LOGS_LISTED);
    expect(fields.foreignLogs?.at(-1)?.file).toBe(`logs/${MAX_FOREIGN_LOGS_LISTED - 1}.jsonl`);
    expect(fields.foreignLogsOmitted).toBe(7);
  });

  test('a file name with control characters is kept as it is, for a program to open (JSON escapes it)', () => {
    const named = { ...foreign(0), path: 'logs/a\u001b[31m\n.jsonl' };
    expect(foreignLogsFields([named]).foreignLogs?.[0]?.file).toBe('logs/a\u001b[31m\n.jsonl');
  });
});
