import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// One runner for the whole workspace: `npm test` runs every project below.
// Timeouts only catch a hung test: a test that needs more than a second is resized instead (property runs), because
// Vitest's 5 s default failed sound tests on a busy 2-core machine (issue 21).
const HUNG_MS = 30_000;
export default defineConfig({
  test: {
    // Vitest's default (cores - 1) runs one file at a time on a 2-core machine, where a file's time is mostly its
    // imports and, for the API, statements on the database's own thread or server: two files at once fill both
    // cores (CI's run time, issue 31's note).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'core',
          root: 'packages/core',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: HUNG_MS,
        },
      },
      {
        test: {
          name: 'contracts',
          root: 'packages/contracts',
          include: ['src/**/*.test.ts'],
          testTimeout: HUNG_MS,
        },
      },
      {
        test: {
          name: 'cli',
          root: 'packages/cli',
          include: ['test/**/*.test.ts'],
          testTimeout: HUNG_MS,
        },
      },
      {
        test: {
          name: 'api',
          root: 'apps/api',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // Need Debian's sshd and root: `npm run test:sftp` (vitest.sftp.config.ts), not part of `npm test`.
          exclude: [...configDefaults.exclude, '**/*.sftp.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: HUNG_MS,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
