/**
 * Issue 22: one messy file (half its phones international) from the first upload byte to "all sent", through
 * the real server (`apps/api/src/server.ts` in a child process, its own pg-boss worker included) and a fake
 * Graph API answering every request in 50 ms, SEND_BATCH_SIZE=1000 and the default 4 requests in flight.
 * Prints seconds and rows/s per stage (upload, validate, prepare, send), the server's peak RSS, /api/ready
 * p50/p99 pinged every 20 ms, and checks that the fake Graph received every prepared event exactly once.
 * BENCH_ROWS sets the size (default 1000000; 100000 for a quicker run on a busy machine); BENCH_DATABASE_URL
 * runs the server on PostgreSQL (a fresh database there, dropped at the end) instead of the embedded one.
 */
import { statSync } from 'node:fs';
import { startFakeGraph } from '../e2e/fake-graph/fake-graph.ts';
import { json, startBenchServer, uploadToPrepared } from './api-server.ts';
import { generateCsv } from './generate.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const PORT = Number(process.env.BENCH_E2E_PORT ?? 3962);
const graph = await startFakeGraph({
  delayMs: 50,
  record: true,
  port: Number(process.env.BENCH_GRAPH_PORT ?? 0),
});

const {
  databaseUrl,
  call,
  stage,
  rssMb,
  stop: stopServer,
  longestRequests,
} = await startBenchServer({
  name: 'e2e',
  port: PORT,
  env: { META_GRAPH_URL: graph.url, SEND_BATCH_SIZE: '1000', SEND_CONCURRENCY: '4' },
});
const stop = async () => {
  await stopServer();
  await graph.close();
};

const dbLabel = databaseUrl ? 'PostgreSQL' : 'embedded PGlite';
const file = await generateCsv(ROWS, Math.floor(Date.now() / 1000), { internationalPhones: true });
const mb = statSync(file).size / 1024 / 1024;
console.log(
  `${ROWS.toLocaleString('en-US')} rows (${mb.toFixed(0)} MB, half the phones international) on ${dbLabel}; ` +
    'fake Graph 50 ms, 4 in flight, SEND_BATCH_SIZE=1000; /api/ready (one database round trip) pinged every 20 ms',
);
console.log('| stage | seconds | rows/s | health p50 ms | health p99 ms | server peak RSS MB |');
console.log('|---|---|---|---|---|---|');
const row = (name: string, r: { s: number; p50: number; p99: number; rssMb: number }) =>
  console.log(
    `| ${name} | ${r.s.toFixed(1)} | ${Math.round(ROWS / r.s).toLocaleString('en-US')} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.rssMb.toFixed(0)} |`,
  );
try {
  const idleRss = rssMb();
  const stages: { s: number; p99: number; rssMb: number }[] = [];
  const { id, events } = await uploadToPrepared({ call, stage }, file, ROWS, (name, r) => {
    row(name, r);
    stages.push(r);
  });
  const account = (await (
    await call('/api/meta/accounts', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Bench', pixelId: '123456789012345', accessToken: 'bench-token' }),
    })
  ).json()) as { id: string };
  const s = await stage(async () => {
    await call(`/api/uploads/${id}/send`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ selectedAccountId: account.id }),
    });
    for (;;) {
      const sum = (await (await call(`/api/uploads/${id}/summary`)).json()) as {
        status: string;
        totalSent: number;
        totalFailed: number;
      };
      if (sum.status !== 'running') return sum;
      await new Promise((r) => setTimeout(r, 250));
    }
  });
  row('send', s);
  stages.push(s);
  const total = stages.reduce((a, x) => a + x.s, 0);
  console.log(
    `| **total** | ${total.toFixed(1)} | ${Math.round(ROWS / total).toLocaleString('en-US')} | | ${Math.max(...stages.map((x) => x.p99)).toFixed(1)} | ${Math.max(...stages.map((x) => x.rssMb)).toFixed(0)} |`,
  );
  console.log(`server RSS before the upload: ${idleRss.toFixed(0)} MB`);
  // What a proxy in front of the server would have to let through: the longest single requests, by route.
  console.log(
    `longest single HTTP requests: ${longestRequests()
      .map(([what, ms]) => `${what} ${(ms / 1000).toFixed(1)} s`)
      .join(', ')}`,
  );
  // Every prepared event reached the fake Graph exactly once.
  const st = graph.stats();
  const twice = [...graph.deliveredCount.values()].filter((n) => n !== 1).length;
  console.log(
    `run ${s.result.status}: ${s.result.totalSent} sent, ${s.result.totalFailed} failed; fake Graph: ` +
      `${st.requestCount} requests, ${st.eventsAccepted} events accepted, ${st.distinctEvents} distinct, ${twice} not exactly once`,
  );
  const network = (Math.ceil(events / 1000) * 0.05) / 4;
  console.log(
    `network floor of the send: ${network.toFixed(1)} s; targets: total <= 60 s (PostgreSQL) / 75 s (PGlite) at 1M rows, each stage >= 150,000 rows/s (send >= 25,000), health p99 < 100 ms`,
  );
  if (
    s.result.status !== 'completed' ||
    st.distinctEvents !== events ||
    st.eventsAccepted !== events ||
    twice
  )
    throw new Error(`expected ${events} events each delivered once`);
} finally {
  await stop();
}
