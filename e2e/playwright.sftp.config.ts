import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

/**
 * The SFTP source journey: the main config (same app, browser and fake Graph API) on tests-sftp/, which start
 * Debian's sshd as root (apps/api/test/sftp-server.ts). Apart from `npm run test:e2e` as `npm run test:sftp` is
 * apart from `npm test`: a developer machine may have no sshd or root. Without them this run fails, never skips.
 */
export default defineConfig({
  ...base,
  testDir: './tests-sftp',
  globalSetup: './sftp-global-setup.ts',
});
