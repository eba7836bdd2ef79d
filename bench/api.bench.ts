/**
 * The API path of issue 4: a generated file through upload, validate and prepare on the real server
 * (`apps/api/src/server.ts` in a child process, as `npm start` runs it), printing seconds per stage, rows/s,
 * the server's peak RSS, and /api/health latency (p50/p99) measured from this process while each stage runs.
 * BENCH_API_ROWS sets the sizes (default "100000,1000000"); BENCH_DATABASE_URL runs the server on PostgreSQL
 * (a fresh database there, dropped at the end) instead of the embedded one. The upload limit is raised to
 * 400 MB for the 1,000,000-row file: the product's default is 10 MB.
 */
import { statSync } from 'node:fs';
import { json, multipart, startBenchServer } from './api-server.ts';
import { GENERATED_MAPPINGS as MAPPINGS, generateCsv } from './generate.ts';

const SIZES = (process.env.BENCH_API_ROWS ?? '100000,1000000').split(',').map(Number);
const PORT = Number(process.env.BENCH_API_PORT ?? 3960);
// RUN_WORKER=false: these stages are requests; no background job should share the server's CPU.
const { databaseUrl, call, stage, stop } = await startBenchServer({
  name: 'api',
  port: PORT,
  env: { RUN_WORKER: 'false' },
});

const db = databaseUrl ? 'PostgreSQL' : 'embedded PGlite';
console.log(`server in its own process on ${db}; health pinged every 20 ms from the bench process`);
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

    const up = await stage(async () => {
      const { body, headers } = multipart(file);
      const res = await call('/api/upload', { method: 'POST', body, headers, duplex: 'half' });
      return (await res.json()) as { file: { id: string; rowCount: number } };
    });
    row('upload', up);
    const id = up.result.file.id;
    await call(`/api/uploads/${id}/status`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({
        status: 'mapped',
        mappings: MAPPINGS,
        hardcodedValues: { action_source: 'physical_store' },
      }),
    });
    const v = await stage(
      async () =>
        (await (await call(`/api/uploads/${id}/validate`)).json()) as {
          rowsChecked: number;
          rowsWithErrors: number;
        },
    );
    row('validate', v);
    if (v.result.rowsChecked !== rows) throw new Error(`validated ${v.result.rowsChecked} rows of ${rows}`);
    if (v.result.rowsWithErrors > 0) {
      // The generator's mess is all correctable; an error row means a rule changed, and prepare cannot run.
      throw new Error(`${v.result.rowsWithErrors} rows with errors: prepare needs a clean file`);
    }
    await call(`/api/uploads/${id}/status`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ status: 'validated' }),
    });
    const p = await stage(
      async () => (await (await call(`/api/uploads/${id}/prepare`)).json()) as { totalCount: number },
    );
    row('prepare', p);
    if (p.result.totalCount !== rows) throw new Error(`prepared ${p.result.totalCount} events of ${rows}`);
  }
  console.log('target: health p99 < 100 ms while a stage runs');
} finally {
  await stop();
}
