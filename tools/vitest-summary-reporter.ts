import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints `N passed, N failed, N skipped` alone on a line at the end of a run: the plain closing line that CI reads,
 * which vitest's own summary (`Tests  4 passed (4)`) is not.
 */
export class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A module that failed to load has no tests to count, so it must still show as a failure.
      if (testModule.state() === 'failed' && testModule.children.size === 0) failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
