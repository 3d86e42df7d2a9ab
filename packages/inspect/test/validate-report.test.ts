import type { SessionSummary } from '@cursor-stream/core';
import { finishedSession, sessionAnomalies } from '@cursor-stream/core/sessions';
import { createPalette } from '@cursor-stream/inspect/terminal';
import {
  type FileReport,
  fileReportLines,
  findingLine,
  totalsLine,
  unreadableFileJson,
} from '@cursor-stream/inspect/validate';
import { describe, expect, test } from 'vitest';

const plain = createPalette(false);

const report: FileReport = {
  path: 'logs/run.ndjson',
  dialect: 'official',
  lines: 12,
  events: 20,
  problems: [
    {
      line: 7,
      offset: 900,
      code: 'schema-violation',
      message: "must have required property 'call_id'",
      pointer: '',
    },
    { line: 3, offset: 200, code: 'invalid-json', message: 'Unexpected token } in JSON' },
  ],
  warnings: [
    { line: 5, offset: 500, code: 'unknown-event', message: 'event type retry/starting is not modelled' },
  ],
};

describe('findingLine', () => {
  test("quotes the agent's own output line of a non-json-output finding, as written", () => {
    const message = "RetriableError: [invalid_argument] unknown option '--system-prompt' at C:\\bin";
    const line = findingLine(
      'run.ndjson',
      { line: 7, offset: 90, code: 'non-json-output', message },
      'problem',
      plain,
    );
    expect(line).toBe(`run.ndjson:7: non-json-output: "${message}"`);
  });

  test('reads FILE:LINE: code: message (at /pointer)', () => {
    const line = findingLine(
      'run.ndjson',
      { line: 4, offset: 0, code: 'schema-violation', message: 'must be string', pointer: '/message/role' },
      'problem',
      plain,
    );
    expect(line).toBe('run.ndjson:4: schema-violation: must be string (at /message/role)');
  });

  test('a warning says so before its code, and the record itself needs no pointer', () => {
    const line = findingLine(
      '-',
      { line: 2, offset: 0, code: 'missing-result', message: 'x', pointer: '' },
      'warning',
      plain,
    );
    expect(line).toBe('<stdin>:2: warning: missing-result: x');
  });

  test('a message with a line feed stays on one line', () => {
    const line = findingLine(
      'a',
      { line: 1, offset: 0, code: 'c', message: 'call "x\ny"' },
      'problem',
      plain,
    );
    expect(line).toBe('a:1: c: call "x\\ny"');
  });
});

describe('fileReportLines', () => {
  test('lists findings in input order, then the summary with counts', () => {
    expect(fileReportLines(report, plain)).toEqual([
      'logs/run.ndjson:3: invalid-json: Unexpected token } in JSON',
      'logs/run.ndjson:5: warning: unknown-event: event type retry/starting is not modelled',
      "logs/run.ndjson:7: schema-violation: must have required property 'call_id'",
      'logs/run.ndjson: official, 12 lines, 20 events: 2 problems, 1 warning (unknown-event 1)',
    ]);
  });

  test('a clean file says it has no problems', () => {
    expect(fileReportLines({ ...report, problems: [], warnings: [] }, plain)).toEqual([
      'logs/run.ndjson: official, 12 lines, 20 events: no problems',
    ]);
  });
});

describe('totalsLine', () => {
  test('adds up problems and warnings and counts the files that could not be read', () => {
    const unreadable = unreadableFileJson('gone.ndjson', { code: 'no-such-file', message: 'no such file' });
    expect(totalsLine([report, unreadable], plain)).toBe('2 files: 2 problems, 1 warning, 1 file not read');
  });
});

describe('sessionAnomalies', () => {
  const base: SessionSummary = {
    sessionId: 's1',
    dialect: 'official',
    model: null,
    status: 'success',
    text: 'done',
    textLength: 4,
    textOmitted: null,
    resultText: 'done',
    textMatchesResult: true,
    toolCalls: [],
    counts: {},
    durationMs: null,
    usage: null,
    failure: null,
  };
  const finishLoc = { line: 9, offset: 800 };
  const where = {
    toolOffsets: new Map([
      [4, 300],
      [6, 500],
    ]),
    end: { line: 9, offset: 900 },
  };

  test('a clean session has none', () => {
    expect(sessionAnomalies(finishedSession(base, { finishLoc }), where)).toEqual([]);
  });

  test('an orphan result and a pending call are located at their lines', () => {
    const session: SessionSummary = {
      ...base,
      toolCalls: [
        {
          toolCallId: 'a\nb',
          toolName: 'shell',
          status: 'success',
          startLine: null,
          endLine: 6,
          durationMs: null,
          orphan: true,
          input: null,
        },
        {
          toolCallId: 'c',
          toolName: 'read',
          status: 'pending',
          startLine: 4,
          endLine: null,
          durationMs: null,
          orphan: false,
          input: null,
        },
      ],
    };
    expect(sessionAnomalies(finishedSession(session, { finishLoc }), where)).toEqual([
      {
        line: 6,
        offset: 500,
        code: 'orphan-tool-result',
        message: 'result of shell call "a\\nb" has no matching tool call',
      },
      { line: 4, offset: 300, code: 'pending-tool-call', message: 'read call "c" never completed' },
    ]);
  });

  test('a session without a result is reported at the end of input', () => {
    const findings = sessionAnomalies(
      finishedSession({ ...base, status: 'incomplete', resultText: null, textMatchesResult: null }),
      where,
    );
    expect(findings).toEqual([
      { line: 9, offset: 900, code: 'missing-result', message: 'session s1 ends without a result' },
    ]);
  });

  test('text that differs from the result text is reported at the result', () => {
    const [finding] = sessionAnomalies(
      finishedSession({ ...base, resultText: 'other', textMatchesResult: false }, { finishLoc }),
      where,
    );
    expect(finding).toMatchObject({ line: 9, offset: 800, code: 'text-mismatch' });
  });
});
