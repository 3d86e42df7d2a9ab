import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import { SummaryReporter } from '../vitest-summary-reporter.ts';

/** A finished test module as the reporter reads it: its file and its tests' full names and states. */
function testModule(file: string, tests: [fullName: string, state: string][]): TestModule {
  return {
    moduleId: join(process.cwd(), file),
    state: () => 'passed',
    children: {
      size: tests.length,
      allTests: () => tests.map(([fullName, state]) => ({ fullName, result: () => ({ state }) })),
    },
  } as unknown as TestModule;
}

/** What the reporter prints at the end of a run over `modules`. */
function printed(modules: TestModule[]): string {
  let text = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  });
  new SummaryReporter().onTestRunEnd(modules);
  vi.restoreAllMocks();
  return text;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('SummaryReporter', () => {
  test('says once per missing shared folder how many tests skipped, in which files', () => {
    const text = printed([
      testModule('packages/a/test/one.test.ts', [
        ['real recordings (needs ../shared/real-corpus) > first', 'skipped'],
        ['real recordings (needs ../shared/real-corpus) > second', 'skipped'],
        ['own recordings', 'passed'],
      ]),
      testModule('packages/b/test/two.test.ts', [
        ['on the real recordings (needs ../shared/real-corpus)', 'skipped'],
        ['the seeds (needs ../shared/seeds) > example', 'skipped'],
        ['a todo', 'skipped'],
        ['broken', 'failed'],
      ]),
    ]);
    expect(text).toBe(
      [
        '',
        'note: ../shared/real-corpus is missing, so 3 tests skipped: packages/a/test/one.test.ts (2), ' +
          'packages/b/test/two.test.ts (1). Set CURSOR_STREAM_SHARED to the folder that holds it to run them.',
        '',
        'note: ../shared/seeds is missing, so 1 test skipped: packages/b/test/two.test.ts (1). ' +
          'Set CURSOR_STREAM_SHARED to the folder that holds it to run them.',
        '',
        '1 passed, 1 failed, 5 skipped',
        '',
      ].join('\n'),
    );
  });

  test('prints no note when nothing skipped for a shared folder', () => {
    const text = printed([testModule('packages/a/test/one.test.ts', [['own recordings', 'passed']])]);
    expect(text).toBe('\n1 passed, 0 failed, 0 skipped\n');
  });
});
