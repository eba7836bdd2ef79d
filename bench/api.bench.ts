/**
 * The API path of issue 4: a generated file through upload, validate and prepare on the real server
 * (`apps/api/src/server.ts` in a child process, as `npm start` runs it), printing seconds per stage, rows/s,
 * the server's peak RSS, and /api/ready latency (p50/p99) measured from this process while each stage runs.
 * BENCH_API_ROWS sets the sizes (default "100000,1000000"); BENCH_DATABASE_URL runs the server on PostgreSQL
 * (a fresh database there, dropped at the end) instead of the embedded one. The upload limit is raised to
 * 400 MB for the 1,000,000-row file: the product's default is 10 MB.
 */
import { statSync } from 'node:fs';
import { startBenchServer, uploadToPrepared } from './api-server.ts';
import { generateCsv } from './generate.ts';

const SIZES = (process.env.BENCH_API_ROWS ?? '100000,1000000').split(',').map(Number);
const PORT = Number(process.env.BENCH_API_PORT ?? 3960);
// RUN_WORKER=false: these stages are requests; no background job should share the server's CPU.
const { databaseUrl, call, stage, stop } = await startBenchServer({
  name: 'api',
  port: PORT,
  env: { RUN_WORKER: 'false' },
});

const db = databaseUrl ? 'PostgreSQL' : 'embedded PGlite';
console.log(
  `server in its own process on ${db}; readiness (one database round trip) pinged every 20 ms from the bench process`,
);
console.log('| rows | MB | stage | seconds | rows/s | health p50 ms | health p99 ms | server peak RSS MB |');
console.log('|---|---|---|---|---|---|---|---|');
try {
  for (const rows of SIZES) {
    const file = await generateCsv(rows, Math.floor(Date.now() / 1000));
    const mb = statSync(file).size / 1024 / 1024;
    const row = (name: string, r: { s: number; p50: number; p99: number; rssMb: number }) =>
      console.log(
        `| ${rows.toLocaleString('en-US')} | ${mb.toFixed(0)} | ${name} | ${r.s.toFixed(1)} | ${Math.round(rows / r.s).toLocaleString('en-US')} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.rssMb.toFixed(0)} |`,
      );

    const { events } = await uploadToPrepared({ call, stage }, file, rows, row);
    if (events !== rows) throw new Error(`prepared ${events} events of ${rows}`);
  }
  console.log('target: health p99 < 100 ms while a stage runs');
} finally {
  await stop();
}
