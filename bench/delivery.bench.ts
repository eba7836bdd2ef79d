/**
 * Delivery throughput: BENCH_EVENTS (default 1,000,000) events through the real engine in a separate worker
 * process to the fake Graph API answering in 50 ms, at batch sizes 100 and 1,000; the worker's peak RSS; and
 * the time a kill -9 halfway through costs (lease wait + re-reading the file + the one batch sent again).
 * The embedded database on disk by default; BENCH_DATABASE_URL runs it on PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeGraph } from '../e2e/fake-graph/fake-graph.ts';
import { migrate } from '../apps/api/src/db/migrate.ts';
import { openDatabase } from '../apps/api/src/db/open.ts';
import { deliveryRepo } from '../apps/api/src/modules/delivery/delivery.repo.ts';
import { seedUploadAndAccount } from '../apps/api/src/modules/delivery/delivery.test-helpers.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const LEASE_MS = 5_000;
const WORKER = fileURLToPath(
  new URL('../apps/api/src/modules/delivery/delivery.crash-worker.ts', import.meta.url),
);
const databaseUrl = process.env.BENCH_DATABASE_URL;
const dataDir = databaseUrl ? '' : mkdtempSync(join(tmpdir(), 'bs-bench-delivery-'));

const graph = await startFakeGraph({ delayMs: 50, record: false });

async function withDb<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = await openDatabase({ databaseUrl, dataDir });
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.close();
  }
}

const newRun = () =>
  withDb(async (db) => {
    const userId = crypto.randomUUID();
    await db.query(
      `insert into users (id, email, first_name, last_name, password_hash, email_verified) values ($1, $2, 'B', 'B', 'x', true)`,
      [userId, `${userId}@bench.local`],
    );
    const { uploadId, accountId } = await seedUploadAndAccount(db, userId);
    const run = await deliveryRepo.createRun(db, {
      workspaceId: userId,
      uploadId,
      accountId,
      pixelId: '123456789',
      accountName: 'Bench',
      testEventCode: null,
      skipDelivered: true,
    });
    return run.id;
  });

function worker(
  runId: string,
  batchSize: number,
  crashAt = '',
): Promise<{ signal: string | null; peakRssMb?: number }> {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      env: {
        ...process.env,
        CRASH_DB_URL: databaseUrl ?? '',
        CRASH_DATA_DIR: dataDir,
        CRASH_RUN_ID: runId,
        CRASH_PREFIX: runId.slice(0, 8),
        CRASH_EVENTS: String(EVENTS),
        CRASH_GRAPH_URL: graph.url,
        CRASH_BATCH_SIZE: String(batchSize),
        CRASH_CONCURRENCY: String(CONCURRENCY),
        CRASH_LEASE_MS: String(LEASE_MS),
        // A generous request timeout as in production: a timed-out request Meta did accept is sent twice.
        CRASH_TIMEOUT_MS: '30000',
        CRASH_AT: crashAt,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (_code, signal) =>
      resolve({
        signal,
        ...(out.trim() ? (JSON.parse(out.trim().split('\n').at(-1)!) as { peakRssMb: number }) : {}),
      }),
    );
  });
}

const rows: string[][] = [];
let cleanAt1000 = 0;
for (const batchSize of [100, 1000]) {
  graph.reset();
  const runId = await newRun();
  const t = performance.now();
  const r = await worker(runId, batchSize);
  const s = (performance.now() - t) / 1000;
  if (graph.stats().eventsAccepted !== EVENTS)
    throw new Error(`expected ${EVENTS} events, server got ${graph.stats().eventsAccepted}`);
  if (batchSize === 1000) cleanAt1000 = s;
  rows.push([
    `batch ${batchSize}`,
    `${Math.round(EVENTS / s).toLocaleString()} events/s`,
    `${s.toFixed(1)} s`,
    `${r.peakRssMb} MB`,
  ]);
}

// kill -9 halfway (between Meta's answer and the commit), then a fresh worker resumes.
graph.reset();
const runId = await newRun();
const t = performance.now();
const half = Math.max(1, Math.floor(EVENTS / 1000 / 2));
const crashed = await worker(runId, 1000, `after-answer:${half}`);
const resumed = await worker(runId, 1000);
const total = (performance.now() - t) / 1000;
const received = graph.stats().eventsAccepted;
rows.push([
  'kill -9 at 50% + resume',
  `${(total - cleanAt1000).toFixed(1)} s lost`,
  `${total.toFixed(1)} s total (lease ${LEASE_MS / 1000} s)`,
  `${resumed.peakRssMb} MB`,
]);
if (crashed.signal !== 'SIGKILL') throw new Error('the worker was meant to die');

console.log(
  `${EVENTS.toLocaleString()} events, fake Graph API answering in 50 ms, ${CONCURRENCY} requests in flight, ${databaseUrl ? 'PostgreSQL' : 'embedded PGlite on disk'}`,
);
console.table(rows.map(([what, rate, time, rss]) => ({ what, rate, time, 'worker peak RSS': rss })));
console.log(
  `events received by the server in the crash run: ${received.toLocaleString()} (${(received - EVENTS).toLocaleString()} sent twice: the batch answered but not recorded)`,
);
await graph.close();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
