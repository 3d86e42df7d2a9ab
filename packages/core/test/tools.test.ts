import { codePointCount } from '@cursor-stream/core/text';
import {
  toolArgumentDetails,
  toolErrorText,
  toolFailureReason,
  toolHeadline,
  toolLabel,
  toolOutcomeDetails,
} from '@cursor-stream/core/tools';
import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';

describe('tool lines', () => {
  test("each tool's headline is what a person looks for in it", () => {
    expect([
      toolHeadline('shell', { command: 'ls -la', workingDirectory: '/w' }),
      toolHeadline('read', { path: 'src/a.ts', offset: 10, limit: 50 }),
      toolHeadline('read', { path: 'src/a.ts' }),
      toolHeadline('grep', { pattern: 'TODO\\(', path: 'src', caseInsensitive: false }),
      toolHeadline('grep', { pattern: 'x' }),
      toolHeadline('glob', { globPattern: '**/*.ts', targetDirectory: 'src' }),
      toolHeadline('ls', { path: 'C:\\Users\\dev' }),
      toolHeadline('edit', { path: 'a.txt', streamContent: 'x' }),
      toolHeadline('semSearch', { query: 'where is auth' }),
      toolHeadline('shell', { whatever: 1 }),
    ]).toEqual([
      'ls -la',
      'src/a.ts lines 10-59',
      'src/a.ts',
      '"TODO\\(" in src',
      '"x"',
      '"**/*.ts" in src',
      'C:\\Users\\dev',
      'a.txt',
      'where is auth',
      '',
    ]);
  });

  test('the other arguments follow as key=value, values as written, plumbing only when verbose', () => {
    const input = {
      path: 'a.txt',
      fileText: 'x\n'.repeat(50),
      toolCallId: 'c1\nfc_1',
      mode: 'w',
      cwd: 'C:\\Users\\dev app',
      simpleCommands: ['ls'],
    };
    expect(toolArgumentDetails('write', input)).toBe('fileText=(51 lines) mode=w cwd="C:\\Users\\dev app"');
    expect(toolArgumentDetails('write', input, true)).toBe(
      'fileText=(51 lines) toolCallId=c1\\nfc_1 mode=w cwd="C:\\Users\\dev app" simpleCommands=["ls"]',
    );
    expect(toolArgumentDetails('grep', { pattern: 'p', path: 'src', multiline: false })).toBe(
      'multiline=false',
    );
  });

  test('outcomes show the facts a person looks for, with plurals right', () => {
    const grepContent = {
      workspaceResults: {
        '/w': { content: { matches: [{ file: 'a' }, { file: 'b' }], totalMatchedLines: 3 } },
      },
    };
    expect([
      toolOutcomeDetails({ exitCode: 1, stderr: 'boom\nmore' }, true),
      toolOutcomeDetails({ totalLines: 54 }, false),
      toolOutcomeDetails({ totalLines: 1 }, false),
      toolOutcomeDetails({ readRange: { startLine: 10, endLine: 59 }, totalLines: 120 }, false),
      toolOutcomeDetails({ linesAdded: 3, linesRemoved: 1 }, false),
      toolOutcomeDetails(grepContent, false),
      toolOutcomeDetails({ workspaceResults: { '/w': { files: { files: ['a'], totalFiles: 1 } } } }, false),
      toolOutcomeDetails({ directoryTreeRoot: { childrenDirs: [{}], childrenFiles: [] } }, false),
      toolOutcomeDetails({ totalFiles: 1, files: ['a'] }, false),
      toolOutcomeDetails({ reason: 'rejected by user' }, true),
      toolOutcomeDetails({ error: { error: 'regex parse error' } }, true),
    ]).toEqual([
      'exit 1, boom …',
      '54 lines',
      '1 line',
      'lines 10-59 of 120',
      '+3 -1',
      '3 matching lines in 2 files',
      '1 file',
      '1 entry',
      '1 file',
      'rejected by user',
      'regex parse error',
    ]);
  });
});

describe('one failure reason for every view', () => {
  test('is found at the top of the output or one level down, in the order of its fields', () => {
    expect(toolFailureReason({ error: { error: 'regex parse error' } })).toBe('regex parse error');
    // An `error` arm holding only what the model was shown.
    expect(toolFailureReason({ error: { modelVisibleError: 'Path is outside the workspace' } })).toBe(
      'Path is outside the workspace',
    );
    expect(toolFailureReason({ error: { message: 'boom' }, message: 'later' })).toBe('boom');
    expect(toolFailureReason({ stderr: '  x\n', reason: 'rejected' })).toBe('rejected');
    expect(toolFailureReason({ error: { error: { error: 'too deep' } } })).toBeUndefined();
    expect(toolFailureReason('  plain words ')).toBe('plain words');
    expect(toolFailureReason({ exitCode: 1, stdout: 'no reason here' })).toBeUndefined();
  });

  const reasonKey = fc.constantFrom('errorMessage', 'error', 'message', 'reason', 'stderr');
  const text = fc.string({ maxLength: 40 });
  const output = fc.oneof(
    fc.dictionary(reasonKey, fc.oneof(text, fc.dictionary(reasonKey, text))),
    fc.record({ exitCode: fc.integer({ min: -2, max: 200 }), stderr: text }),
  );

  propTest.prop([fc.constantFrom('failure', 'error', 'rejected'), output])(
    'the error text quotes the reason whole and the outcome its first line, both from the same words',
    (status, toolOutput) => {
      const reason = toolFailureReason(toolOutput);
      const errorText = toolErrorText({ status, output: toolOutput });
      expect(errorText.startsWith(status)).toBe(true);
      if (reason === undefined) {
        expect(errorText).not.toContain(': ');
      } else {
        expect(errorText.endsWith(`: ${reason}`)).toBe(true);
        // Printable text of at most 40 characters: neither escaped nor cut, so it reads as written.
        expect(toolOutcomeDetails(toolOutput, true).endsWith(reason.split('\n')[0] ?? '')).toBe(true);
      }
    },
  );
});

describe('a tool label', () => {
  const toolName = fc.constantFrom('shell', 'read', 'grep', 'glob', 'ls', 'mcp', 'semSearch');
  const input = fc.dictionary(
    fc.constantFrom('command', 'path', 'pattern', 'query', 'name', 'offset', 'limit', 'url'),
    fc.oneof(fc.string({ maxLength: 200 }), fc.nat({ max: 500 })),
  );

  propTest.prop([toolName, input, fc.integer({ min: 10, max: 200 })])(
    'is the name and the headline on one line, cut to its length',
    (name, args, maxLength) => {
      const label = toolLabel(name, args, maxLength);
      const headline = toolHeadline(name, args);
      const whole = headline === '' ? name : `${name} ${headline}`;
      expect(label).not.toMatch(/[\n\r]/);
      expect(codePointCount(label)).toBeLessThanOrEqual(maxLength);
      if (codePointCount(whole) <= maxLength) expect(label).toBe(whole);
      // Cut at its end, or (a path) in its middle: the name always leads.
      else expect(label.includes('…') && label.startsWith(name)).toBe(true);
    },
  );
});
