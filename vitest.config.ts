import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // Beside the integration files on a slow 2-core machine, the heaviest property loops
          // (word-memo.test.ts: 300 seeds) passed 5 s, vitest's default: a timeout is no speed target.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts', 'test/integration/opensearch-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Integration files share one Postgres and one Redis; run them one at a time so the
          // 2-core machines are not oversubscribed and timings stay sane.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // A group of its own (after unit): a browser never runs beside other test files on 2 cores.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
