import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@cursor-stream/source'] },
  // Tests import workspace packages by name; the source condition maps them to src/*.ts, so no build is needed.
  ssr: { resolve: { conditions: ['@cursor-stream/source'] } },
  // The runner's own modules (the summary reporter) import the test kit by name as well.
  environments: { __vitest__: { resolve: { conditions: ['@cursor-stream/source'] } } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'bench/test/**/*.test.ts', 'tools/test/**/*.test.ts'],
    setupFiles: ['./tools/fast-check-setup.ts'],
    globalSetup: ['./tools/bundle-cli-setup.ts'],
    // By path, so that vitest loads it with the source condition, as the tests are.
    reporters: ['default', './tools/vitest-summary-reporter.ts'],
    testTimeout: 60_000,
  },
});
