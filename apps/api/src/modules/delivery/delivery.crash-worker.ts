// A worker process for the crash tests and the benchmark: runs one send and, when told, kills itself with SIGKILL at a
// crash point, exactly like `kill -9` (no cleanup, no finally blocks).
import { loadConfig } from '../../config/env.ts';
import { openDatabase } from '../../db/open.ts';
import { runSend, type CrashPoint } from './delivery.engine.ts';
import { appDeliverySource } from './delivery.source.ts';
import { fakeSource, streamEvents } from './delivery.test-helpers.ts';

const env = process.env;
const db = await openDatabase({
  databaseUrl: env.CRASH_DB_URL || undefined,
  dataDir: env.CRASH_DATA_DIR ?? '',
});
const [point, nth] = (env.CRASH_AT ?? '').split(':') as [CrashPoint | '', string];
let seen = 0;
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
const status = await runSend(
  {
    db,
    // CRASH_SOURCE=app: the run's stored file through the workflow pipeline and the account's encrypted token,
    // exactly as in production (the config must match the one the test stored the token with).
    source:
      env.CRASH_SOURCE === 'app'
        ? appDeliverySource(db, loadConfig(env))
        : fakeSource(() => streamEvents(Number(env.CRASH_EVENTS), env.CRASH_PREFIX!)),
    fetch,
    graphUrl: env.CRASH_GRAPH_URL!,
    apiVersion: 'v25.0',
    batchSize: Number(env.CRASH_BATCH_SIZE ?? 100),
    concurrency: Number(env.CRASH_CONCURRENCY ?? 2),
    timeoutMs: Number(env.CRASH_TIMEOUT_MS ?? 2000),
    leaseMs: Number(env.CRASH_LEASE_MS ?? 500),
    pollMs: 100,
    backoff: { maxAttempts: 8, baseMs: 5, capMs: 50 },
    onPoint: (p) => {
      if (p === point && ++seen === Number(nth)) process.kill(process.pid, 'SIGKILL');
    },
  },
  env.CRASH_RUN_ID!,
);
clearInterval(sampler);
console.log(JSON.stringify({ status, peakRssMb: Math.round(peakRss / 1024 / 1024) }));
await db.close();
