import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts', 'console/web/**/*.test.tsx'],
    exclude: ['node_modules/**', 'dist/**'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/support/closing-line-reporter.ts'],
  },
});
