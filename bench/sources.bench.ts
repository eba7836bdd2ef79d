/**
 * Issue 23's scheduler on one PostgreSQL: 100 hourly sources whose due times fall within the same 30 seconds
 * (the worst case of an hour: everyone picked :00), two workers ticking every SCHEDULER_TICK_MS as in
 * production, each run a real fetch (loopback CSV, 10 rows) → upload → validate → send to the fake Graph.
 * Prints the delay between each run's due time and its start (p50/p99/max) and the scheduler's overhead: the
 * time of an idle tick (stale-run sweep + claim) with 100 sources none of which is due.
 * Issue 30: a neighbour account's BENCH_NEIGHBOUR_SOURCES (default 4) sources, due first, point at a server that
 * answers nothing (each fetch runs to its 60 s timeout); the delays printed are the 100 sources' of the other
 * account, with how many of the neighbour's runs were ever in flight at once.
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres): a fresh database there, dropped after.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { loadConfig } from '../apps/api/src/config/env.ts';
import { migrate } from '../apps/api/src/db/migrate.ts';
import { openPostgres } from '../apps/api/src/db/postgres.ts';
import { memoryMailer } from '../apps/api/src/integrations/mailer.ts';
import { SCHEDULER_TICK_MS } from '../apps/api/src/jobs/source-scheduler.job.ts';
import { appDeliverySource } from '../apps/api/src/modules/delivery/delivery.source.ts';
import { createAccount } from '../apps/api/src/modules/pixels/pixels.service.ts';
import { tick } from '../apps/api/src/modules/sources/scheduler.ts';
import { sourcesRepo } from '../apps/api/src/modules/sources/sources.repo.ts';
import { startFakeGraph } from '../e2e/fake-graph/fake-graph.ts';

const SOURCES = 100;
const NEIGHBOUR_SOURCES = Number(process.env.BENCH_NEIGHBOUR_SOURCES ?? 4);
const WINDOW_MS = 30_000;
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `bs_bench_sources_${Date.now()}`;
async function admin(sql: string) {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  await c.query(sql);
  await c.end();
}
await admin(`create database ${dbName}`);
const url = new URL(serverUrl);
url.pathname = `/${dbName}`;
const config = loadConfig({
  NODE_ENV: 'test',
  DATA_DIR: '/tmp/bs-bench-sources',
  SESSION_SECRET: 'bench-session-secret-that-is-long-enough-123',
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  // The sheet server below listens on loopback, which sources may reach only when it is listed.
  SOURCES_ALLOW_NETWORKS: '127.0.0.0/8',
});
const graph = await startFakeGraph({ record: false });
const when = new Date(Date.now() - 86_400_000).toISOString();
// Each source's own ten rows (distinct event ids), so every run has ten events to send.
let stopping = false;
const sheet = createServer((req, res) =>
  // The neighbour's files: headers never come until the bench is done measuring, then they fail at once.
  req.url?.startsWith('/hang')
    ? stopping && res.destroy()
    : res.end(
        [
          'Email,Event,When,Source',
          ...Array.from(
            { length: 10 },
            (_, i) => `b${i}.${req.url?.slice(1)}@example.com,Lead,${when},physical_store`,
          ),
        ].join('\n'),
      ),
);
await new Promise<void>((r) => sheet.listen(0, '127.0.0.1', r));
const sheetUrl = `http://127.0.0.1:${(sheet.address() as AddressInfo).port}`;

const workers = await Promise.all([1, 2].map(() => openPostgres(url.toString(), 4)));
const db = workers[0]!;
await migrate(db);
const userId = randomUUID();
await db.query(
  `insert into users (id, email, first_name, last_name, password_hash, email_verified) values ($1, $2, 'B', 'B', 'x', true)`,
  [userId, `bench-${userId}@example.com`],
);
const account = await createAccount(db, config, userId, {
  name: 'Bench',
  pixelId: '123456789',
  accessToken: 'EAAB-bench',
});
const neighbourId = randomUUID();
await db.query(
  `insert into users (id, email, first_name, last_name, password_hash, email_verified) values ($1, $2, 'N', 'N', 'x', true)`,
  [neighbourId, `neighbour-${neighbourId}@example.com`],
);
const neighbourAccount = await createAccount(db, config, neighbourId, {
  name: 'Neighbour',
  pixelId: '987654321',
  accessToken: 'EAAB-bench',
});
const start = Date.now() + 3_000;
for (let i = 0; i < SOURCES + NEIGHBOUR_SOURCES; i++) {
  const neighbour = i >= SOURCES;
  await sourcesRepo.insert(db, randomUUID(), neighbour ? neighbourId : userId, {
    name: `Source ${i}`,
    kind: 'csv_url',
    connection: {
      kind: 'csv_url',
      url: neighbour ? `${sheetUrl}/hang${i}` : `${sheetUrl}/s${i}`,
      auth: 'none',
      headerName: null,
      username: null,
    },
    sealed: null,
    mappings: { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' },
    hardcodedValues: {},
    settings: { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' },
    pixelAccountId: neighbour ? neighbourAccount.id : account.id,
    testEventCode: null,
    schedule: { every: 'hour', minute: 0 },
    timeZone: 'UTC',
    errorThreshold: 0.2,
    // The neighbour's sources are due first, so without fairness they would take both workers' slots.
    nextRunAt: neighbour ? new Date(start - 1000) : new Date(start + Math.floor((i * WINDOW_MS) / SOURCES)),
  });
}

const delays: number[] = [];

const runners = workers.map((w) => ({
  db: w,
  config,
  mailer: memoryMailer(),
  now: () => new Date(),
  engine: {
    db: w,
    source: appDeliverySource(w, config),
    fetch,
    graphUrl: graph.url,
    apiVersion: 'v25.0',
    batchSize: 1000,
    concurrency: 2,
  },
}));
// Each worker as startSourceScheduler runs it: a tick every SCHEDULER_TICK_MS, never two at once.
const ticking = new Set<Promise<unknown>>();
const timers = runners.map((runner) => {
  let busy = false;
  const run = async () => {
    if (busy) return;
    busy = true;
    const pass = tick(runner, {
      onStart: (c, at) => {
        if (c.source.workspaceId === userId) delays.push(at.getTime() - c.dueAt!.getTime());
      },
    }).finally(() => (busy = false));
    ticking.add(pass);
    await pass.finally(() => ticking.delete(pass));
  };
  void run();
  return setInterval(() => void run(), SCHEDULER_TICK_MS);
});
const t0 = Date.now();
while (delays.length < SOURCES && Date.now() - t0 < 10 * 60_000) await new Promise((r) => setTimeout(r, 200));
timers.forEach(clearInterval);
// The neighbour's hanging fetches fail now, and its remaining due sources run (and fail) at once.
stopping = true;
sheet.closeAllConnections();
await Promise.allSettled([...ticking]);
await new Promise((r) => setTimeout(r, 2_000));

// Overhead: idle ticks with nothing due (every source's next run is an hour away now).
const idle: number[] = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  await tick(runners[0]!);
  idle.push(performance.now() - t);
}
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const runs = await db.query<{ status: string; n: number }>(
  'select status, count(*)::int as n from source_runs group by status',
);
console.log(
  `sources: ${SOURCES} hourly, due within ${WINDOW_MS / 1000} s; 2 workers ticking every ${SCHEDULER_TICK_MS / 1000} s`,
);
// The most neighbour runs that overlapped: at each one's start, how many had started and not finished.
const overlap = await db.query<{ n: number }>(
  `select coalesce(max((select count(*) from source_runs o where o.workspace_id = r.workspace_id and o.started_at <= r.started_at
     and (o.finished_at is null or o.finished_at > r.started_at))), 0)::int as n
     from source_runs r where r.workspace_id = $1`,
  [neighbourId],
);
const neighbourMost = overlap.rows[0]!.n;
console.log(
  `neighbour: ${NEIGHBOUR_SOURCES} sources whose server never answers, due first; at most ${neighbourMost} of its runs in flight at once`,
);
console.log(
  `runs started: ${delays.length}; outcomes: ${runs.rows.map((r) => `${r.status} ${r.n}`).join(', ')}`,
);
console.log(
  `due → start delay: p50 ${(pct(delays, 50) / 1000).toFixed(2)} s, p99 ${(pct(delays, 99) / 1000).toFixed(2)} s, max ${(Math.max(...delays) / 1000).toFixed(2)} s`,
);
console.log(
  `idle tick (sweep + claim, 100 sources): p50 ${pct(idle, 50).toFixed(1)} ms, p99 ${pct(idle, 99).toFixed(1)} ms`,
);
console.log(`events received by the fake Graph: ${graph.stats().eventsAccepted}`);
await Promise.all(workers.map((w) => w.close()));
await graph.close();
sheet.close();
await admin(`drop database if exists ${dbName} with (force)`);
