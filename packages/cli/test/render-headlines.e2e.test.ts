import { join } from 'node:path';
import { REAL_CORPUS } from '@cursor-stream/test-kit/corpus';
import { runCli } from '@cursor-stream/test-kit/run-cli';
import { describe, expect, test } from 'vitest';

const HEADLINES = 'corpus/render/tool-headlines.ndjson';

describe('render headlines on the hand-written recording', () => {
  test('each tool shows what a person looks for, paths as written, messages of different calls apart', async () => {
    const run = await runCli(['render', HEADLINES]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout.split('\n')).toEqual([
      '── session s-render · Auto · C:\\Users\\dev\\app',
      '> Look around the project.',
      'I wrote `probe.txt`.',
      '',
      'Now searching.',
      '● shell dir /b',
      '    workingDirectory=C:\\Users\\dev\\app timeout=30000 isBackground=false',
      '  ✓ shell dir /b success · exit 0 · 250 ms',
      '● read C:\\Users\\dev\\app\\src\\main.ts lines 10-59',
      '  ✓ read C:\\Users\\dev\\app\\src\\main.ts lines 10-59 success · lines 10-59 of 120 · 250 ms',
      '● grep "TODO\\(" in src',
      '    outputMode=content caseInsensitive=false multiline=false offset=0',
      '  ✓ grep "TODO\\(" in src success · 3 matching lines in 2 files · 250 ms',
      '● grep "import"',
      '    outputMode=files_with_matches',
      '  ✓ grep "import" success · 1 file · 250 ms',
      '● ls C:\\Users\\dev\\app',
      '    ignore=[]',
      '  ✓ ls C:\\Users\\dev\\app success · 2 entries · 250 ms',
      '● glob "**/*.ts" in src',
      '  ✓ glob "**/*.ts" in src success · 2 files · 250 ms',
      '● edit src\\main.ts',
      '    streamContent=(2 lines)',
      '  ✓ edit src\\main.ts success · +2 -1 · 250 ms',
      'Found 3 TODOs.',
      '',
      'Done.',
      '✓ done · 9.0 s',
      '',
    ]);
  });

  test('--verbose also shows the plumbing arguments, a call id with a line feed escaped', async () => {
    const run = await runCli(['render', '--verbose', HEADLINES]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('toolCallId=call_sh\\nfc_sh simpleCommands=["dir"]');
  });
});

const TOOLS_LOG = join(
  REAL_CORPUS.path,
  'LRM-Teams__coforge__packages_daemon_test_fixtures_cursor-turn-tools.ndjson',
);

describe('render headlines on a real recording', () => {
  test.skipIf(!REAL_CORPUS.present)(
    `grep, glob and read say what they looked for and found ${REAL_CORPUS.needs}`,
    async () => {
      const run = await runCli(['render', TOOLS_LOG]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('✓ grep "probe-marker" success · 4 matching lines in 1 file');
      expect(run.stdout).toContain('✓ glob "*.md" success · 1 file');
      expect(run.stdout).toContain('✓ read notes.md success · lines 1-3 of 3');
      expect(run.stdout).not.toMatch(/toolCallId=|simpleCommands=|parsingResult=/);
    },
  );
});
