// A worker process for the crash tests and the benchmark: runs one send and, when told, kills itself with SIGKILL at a
// crash point, exactly like `kill -9` (no cleanup, no finally blocks). CRASH_MODE=service runs a production worker
// instead (pg-boss, sweeps, job handler) until the run is no longer running: the peer that takes a dead send over.
import { loadConfig } from '../../config/env.ts';
import { openDatabase } from '../../db/open.ts';
import { startQueue } from '../../jobs/queue.ts';
import { startSendRunWorker } from '../../jobs/send-run.job.ts';
import { deliveryRepo } from './delivery.repo.ts';
import { runSend, type CrashPoint, type EngineOptions } from './delivery.engine.ts';
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
const runId = env.CRASH_RUN_ID!;
// Short enough that a killed worker's batches come free quickly, long enough that a live worker's beat (every
// quarter lease) is not missed on a busy machine, where a missed lease means a batch sent twice.
const leaseMs = Number(env.CRASH_LEASE_MS ?? 3000);
const heartbeatMs = Number(env.CRASH_HEARTBEAT_MS ?? Math.floor(leaseMs / 4));
const opts: EngineOptions = {
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
  leaseMs,
  heartbeatMs,
  pollMs: 100,
  backoff: { maxAttempts: 8, baseMs: 5, capMs: 50 },
  onPoint: (p) => {
    if (p === point && ++seen === Number(nth)) process.kill(process.pid, 'SIGKILL');
  },
};

let status: string | null;
if (env.CRASH_MODE === 'service') {
  const boss = await startQueue(db, env.CRASH_DB_URL || undefined);
  await startSendRunWorker(boss, opts, {
    heartbeatMs,
    staleAfterMs: leaseMs,
    sweepEveryMs: Number(env.CRASH_SWEEP_MS ?? 200),
  });
  console.log(JSON.stringify({ ready: true }));
  for (;;) {
    status = (await deliveryRepo.getRun(db, runId))?.status ?? null;
    if (status !== 'running') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await boss.stop({ graceful: true, wait: true, timeout: 10_000 }).catch(() => {});
} else {
  status = await runSend(opts, runId);
}
clearInterval(sampler);
console.log(JSON.stringify({ status, peakRssMb: Math.round(peakRss / 1024 / 1024) }));
await db.close();
