import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { NEEDS_PATTERN } from './shared-material.ts';

/**
 * Prints `N passed, N failed, N skipped` alone on a line at the end of a run: the plain closing line that CI reads,
 * which vitest's own summary (`Tests  4 passed (4)`) is not. Before it, once per missing shared folder, a note naming
 * the suites that skipped for it (their titles say `(needs FOLDER)`), however many test files asked for it.
 */
export class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    /** Per missing folder, per test file, the tests skipped for it. */
    const missing = new Map<string, Map<string, number>>();
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else {
          skipped++;
          const folder = NEEDS_PATTERN.exec(test.fullName)?.[1];
          if (folder === undefined) continue;
          const files = missing.get(folder) ?? new Map<string, number>();
          const file = relative(process.cwd(), testModule.moduleId);
          files.set(file, (files.get(file) ?? 0) + 1);
          missing.set(folder, files);
        }
      }
      // A module that failed to load has no tests to count, so it must still show as a failure.
      if (testModule.state() === 'failed' && testModule.children.size === 0) failed++;
    }
    for (const [folder, files] of missing) {
      const count = [...files.values()].reduce((total, tests) => total + tests, 0);
      const suites = [...files].map(([file, tests]) => `${file} (${tests})`).join(', ');
      process.stdout.write(
        `\nnote: ${folder} is missing, so ${count} ${count === 1 ? 'test' : 'tests'} skipped: ${suites}. ` +
          'Set CURSOR_STREAM_SHARED to the folder that holds it to run them.\n',
      );
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
