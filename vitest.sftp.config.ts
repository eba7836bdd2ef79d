import { defineConfig } from 'vitest/config';

// SFTP sources against Debian's openssh-server, started by the tests (apps/api/test/sftp-server.ts). Apart from
// `npm test` because a fresh developer machine has no sshd; `npm run test:sftp` fails, never skips, without it.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'sftp',
          root: 'apps/api',
          include: ['src/**/*.sftp.test.ts'],
          globalSetup: ['test/sftp-global-setup.ts', 'test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
