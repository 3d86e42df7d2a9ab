import { skipNotes } from '@cursor-stream/test-kit/skip-notes';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends a run with one note per missing prerequisite naming what it skipped, then `N passed, N failed, N skipped`
 * alone on a line: the plain closing line that CI reads, which vitest's own summary (`Tests  4 passed (4)`) is not.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skippedNames: string[] = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else {
          skipped++;
          skippedNames.push(`${testModule.relativeModuleId} > ${test.fullName}`);
        }
      }
      for (const suite of testModule.children.allSuites()) {
        if (suite.state() === 'skipped')
          skippedNames.push(`${testModule.relativeModuleId} > ${suite.fullName}`);
      }
      // A module that failed to load has no tests to count, so it must still show as a failure.
      if (testModule.state() === 'failed' && testModule.children.size === 0) failed++;
    }
    const notes = skipNotes(skippedNames);
    process.stdout.write(
      `\n${notes.map((line) => `${line}\n`).join('')}${passed} passed, ${failed} failed, ${skipped} skipped\n`,
    );
  }
}
