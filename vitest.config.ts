import { defineConfig } from 'vitest/config';
import { SummaryReporter } from './tools/vitest-summary-reporter.ts';

export default defineConfig({
  resolve: { conditions: ['@cursor-stream/source'] },
  // Tests import workspace packages by name; the source condition maps them to src/*.ts, so no build is needed.
  ssr: { resolve: { conditions: ['@cursor-stream/source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'bench/test/**/*.test.ts', 'tools/test/**/*.test.ts'],
    setupFiles: ['./tools/fast-check-setup.ts'],
    globalSetup: ['./tools/bundle-cli-setup.ts'],
    reporters: ['default', new SummaryReporter()],
    testTimeout: 60_000,
  },
});
