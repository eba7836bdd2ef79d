/**
 * The API path of issue 4: a generated file through upload, validate and prepare on a listening server
 * (embedded PGlite), printing seconds per stage, rows/s, the API's RSS, and /api/health latency (p50/p99)
 * measured while each stage runs. BENCH_API_ROWS sets the sizes (default "100000,1000000").
 */
import { readFileSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config/env.ts';
import { openPglite } from '../apps/api/src/db/pglite.ts';
import { migrate } from '../apps/api/src/db/migrate.ts';
import { memoryMailer } from '../apps/api/src/integrations/mailer.ts';
import { createSession } from '../apps/api/src/modules/sessions/sessions.service.ts';
import { generateCsv } from './generate.ts';

const SIZES = (process.env.BENCH_API_ROWS ?? '100000,1000000').split(',').map(Number);
const MAPPINGS = {
  email: 'email', phone: 'phone', first_name: 'first_name', last_name: 'last_name', city: 'city', state: 'state', zip: 'zip',
  country: 'country', event_name: 'event_name', event_time: 'event_time', value: 'value', currency: 'currency', order_id: 'order_id',
};

const db = await openPglite();
await migrate(db);
const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/backsignal-bench', MAX_UPLOAD_MB: '400', SESSION_SECRET: 'bench-secret-bench-secret-bench-secret', TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'), LOG_LEVEL: 'silent' });
const app = await buildApp({ config, db, mailer: memoryMailer() });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const userId = randomUUID();
await db.query(`insert into users (id, email, first_name, password_hash, email_verified) values ($1, 'bench@example.com', 'Bench', 'x', true)`, [userId]);
const { token } = await createSession(db, userId, new Date());
const first = await fetch(`${base}/auth/me`, { headers: { cookie: `bs_session=${token}` } });
const xsrf = /XSRF-TOKEN=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')![1]!;
const headers = { cookie: `bs_session=${token}; XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };

/** Runs a stage while pinging /api/health every 20 ms; answers seconds and health latencies. */
async function stage<T>(work: () => Promise<T>) {
  const lat: number[] = [];
  let running = true;
  const pinger = (async () => {
    while (running) {
      const t = performance.now();
      await fetch(`${base}/api/health`);
      lat.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  let peak = 0;
  const rss = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const t = performance.now();
  const result = await work();
  const s = (performance.now() - t) / 1000;
  running = false;
  await pinger;
  clearInterval(rss);
  lat.sort((a, b) => a - b);
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor(lat.length * p))] ?? 0;
  return { result, s, p50: pct(0.5), p99: pct(0.99), rssMb: peak / 1024 / 1024 };
}

console.log('| rows | MB | stage | seconds | rows/s | health p50 ms | health p99 ms | RSS MB |');
console.log('|---|---|---|---|---|---|---|---|');
for (const rows of SIZES) {
  const file = await generateCsv(rows, Math.floor(Date.now() / 1000));
  const mb = statSync(file).size / 1024 / 1024;
  const row = (name: string, r: { s: number; p50: number; p99: number; rssMb: number }) =>
    console.log(`| ${rows.toLocaleString('en-US')} | ${mb.toFixed(0)} | ${name} | ${r.s.toFixed(1)} | ${Math.round(rows / r.s).toLocaleString('en-US')} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.rssMb.toFixed(0)} |`);

  const up = await stage(async () => {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(file)], { type: 'text/csv' }), 'bench.csv');
    const res = await fetch(`${base}/api/upload`, { method: 'POST', body: form, headers });
    if (!res.ok) throw new Error(`upload ${res.status} ${await res.text()}`);
    return (await res.json()) as { file: { id: string } };
  });
  row('upload', up);
  const id = up.result.file.id;
  const patch = await fetch(`${base}/api/uploads/${id}/status`, {
    method: 'PATCH',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'mapped', mappings: MAPPINGS, hardcodedValues: { action_source: 'physical_store' } }),
  });
  if (!patch.ok) throw new Error(`map ${patch.status}`);
  const v = await stage(async () => (await (await fetch(`${base}/api/uploads/${id}/validate`, { headers })).json()) as { rowsWithErrors: number });
  row('validate', v);
  await fetch(`${base}/api/uploads/${id}/status`, { method: 'PATCH', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ status: 'validated' }) });
  const p = await stage(async () => (await fetch(`${base}/api/uploads/${id}/prepare`, { headers })).json());
  row('prepare', p);
}
await app.close();
await db.close();
