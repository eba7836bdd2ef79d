import { defineConfig } from '@playwright/test';
import { publicUrl, runEnv } from './helpers/run-env.ts';

// Free ports and a per-run data folder unless E2E_PORT, E2E_META_GRAPH_URL or E2E_DATA_DIR say otherwise.
const { port: PORT, graphUrl: GRAPH_URL, dataDir } = await runEnv();
export const DATA_DIR = dataDir;

/** Real Chromium from Debian (never a downloaded browser) against the built app on an embedded database. */
export default defineConfig({
  testDir: './tests',
  globalTeardown: './global-teardown.ts',
  // One artifacts folder per server port, so parallel runs on one machine do not wipe each other's.
  outputDir: `test-results/${PORT}`,
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // The product as `npm start` runs it: the web build (rebuilt only if stale) and the bundled server.
    command: `rm -rf ${DATA_DIR} && node ../scripts/start.mjs`,
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: false,
    // A first start builds the web app and bundles the server: on a busy 2-core machine that took 90–170 s.
    timeout: 240_000,
    env: {
      PORT: String(PORT),
      DATA_DIR,
      APP_URL: `http://localhost:${PORT}`,
      PUBLIC_URL: publicUrl(),
      LOG_LEVEL: 'warn',
      // Every journey signs up from this one address, more than the 10 an hour a real client may.
      SIGNUPS_PER_IP_PER_HOUR: '1000',
      META_GRAPH_URL: GRAPH_URL,
      // The journeys' CSV, S3 and SFTP sources are servers on this machine: loopback only because it is listed.
      SOURCES_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
    },
  },
});
