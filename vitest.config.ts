import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts', 'console/web/**/*.test.tsx'],
    // **/: test/clients/node_modules (the client CLIs) holds packages' own test files.
    exclude: ['**/node_modules/**', 'dist/**'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/support/closing-line-reporter.ts'],
  },
});
