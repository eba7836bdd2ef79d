/**
 * Issue 22: one messy file (half its phones international) from the first upload byte to "all sent", through
 * the real server (`apps/api/src/server.ts` in a child process, its own pg-boss worker included) and a fake
 * Graph API answering every request in 50 ms, SEND_BATCH_SIZE=1000 and the default 4 requests in flight.
 * Prints seconds and rows/s per stage (upload, validate, prepare, send), the server's peak RSS, /api/health
 * p50/p99 pinged every 20 ms, and checks that the fake Graph received every prepared event exactly once.
 * BENCH_ROWS sets the size (default 1000000; 100000 for a quicker run on a busy machine); BENCH_DATABASE_URL
 * runs the server on PostgreSQL (a fresh database there, dropped at the end) instead of the embedded one.
 */
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startFakeGraph } from '../e2e/fake-graph/fake-graph.ts';
import { GENERATED_MAPPINGS as MAPPINGS, generateCsv } from './generate.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const PORT = Number(process.env.BENCH_E2E_PORT ?? 3962);
const base = `http://127.0.0.1:${PORT}`;
const graph = await startFakeGraph({
  delayMs: 50,
  record: true,
  port: Number(process.env.BENCH_GRAPH_PORT ?? 0),
});

const dataDir = mkdtempSync(join(tmpdir(), 'bs-bench-e2e-'));
const serverUrl = process.env.BENCH_DATABASE_URL;
const dbName = `bs_bench_e2e_${Date.now()}`;
async function admin(sql: string) {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  await c.query(sql);
  await c.end();
}
let databaseUrl: string | undefined;
if (serverUrl) {
  await admin(`create database ${dbName}`);
  const u = new URL(serverUrl);
  u.pathname = `/${dbName}`;
  databaseUrl = u.toString();
}

const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  APP_URL: base,
  LOG_LEVEL: 'warn',
  MAX_UPLOAD_MB: '400',
  DATABASE_URL: databaseUrl,
  META_GRAPH_URL: graph.url,
  SEND_BATCH_SIZE: '1000',
  SEND_CONCURRENCY: '4',
};
if (!databaseUrl) delete env.DATABASE_URL;
const server = spawn(
  process.execPath,
  ['--import', 'tsx', fileURLToPath(new URL('../apps/api/src/server.ts', import.meta.url))],
  {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
const stop = async () => {
  server.kill('SIGTERM');
  await graph.close();
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
  if (serverUrl) await admin(`drop database if exists ${dbName} with (force)`);
};

for (let i = 0; ; i++) {
  if (
    await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  if (i > 600) throw new Error('the server did not start');
  await new Promise((r) => setTimeout(r, 100));
}

/** A browser-like session: signs up, opens the verification link from the outbox, keeps the cookies. */
const cookies = new Map<string, string>();
async function call(path: string, init: RequestInit & { duplex?: 'half' } = {}) {
  const headers = new Headers(init.headers);
  headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
  if (cookies.has('XSRF-TOKEN')) headers.set('x-xsrf-token', cookies.get('XSRF-TOKEN')!);
  const res = await fetch(`${base}${path}`, { ...init, headers });
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const at = pair!.indexOf('=');
    cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
  }
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return res;
}
const json = { 'content-type': 'application/json' };
await call('/auth/me');
await call('/auth/signup', {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ email: 'bench@example.com', firstName: 'Bench', password: 'Bench-Mark-2026!' }),
});
const outbox = join(dataDir, 'outbox');
const mail = JSON.parse(readFileSync(join(outbox, readdirSync(outbox)[0]!), 'utf8')) as { text: string };
const link = new URL(/https?:\/\/\S+\/verify\?token=[\w-]+/.exec(mail.text)![0]);
await call(`/auth/verify${link.search}`);

function rssMb(): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** Runs a stage while pinging /api/health every 20 ms; answers seconds, health latencies and server RSS. */
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
  let peak = rssMb();
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 100);
  const t = performance.now();
  const result = await work();
  const s = (performance.now() - t) / 1000;
  running = false;
  await pinger;
  clearInterval(sampler);
  lat.sort((a, b) => a - b);
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor(lat.length * p))] ?? 0;
  return { result, s, p50: pct(0.5), p99: pct(0.99), rssMb: peak };
}

/** The file as a streamed multipart body: the bench holds no copy of it either. */
function multipart(file: string) {
  const boundary = `----bench${Date.now()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.csv"\r\nContent-Type: text/csv\r\n\r\n`;
  async function* parts() {
    yield Buffer.from(head);
    yield* createReadStream(file, { highWaterMark: 256 * 1024 });
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return {
    body: Readable.toWeb(Readable.from(parts())) as ReadableStream,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const dbLabel = databaseUrl ? 'PostgreSQL' : 'embedded PGlite';
const startedAt = performance.now();
const file = await generateCsv(ROWS, Math.floor(Date.now() / 1000), { internationalPhones: true });
const mb = statSync(file).size / 1024 / 1024;
console.log(
  `${ROWS.toLocaleString('en-US')} rows (${mb.toFixed(0)} MB, half the phones international) on ${dbLabel}; ` +
    'fake Graph 50 ms, 4 in flight, SEND_BATCH_SIZE=1000; health pinged every 20 ms',
);
console.log('| stage | seconds | rows/s | health p50 ms | health p99 ms | server peak RSS MB |');
console.log('|---|---|---|---|---|---|');
const row = (name: string, r: { s: number; p50: number; p99: number; rssMb: number }) =>
  console.log(
    `| ${name} | ${r.s.toFixed(1)} | ${Math.round(ROWS / r.s).toLocaleString('en-US')} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.rssMb.toFixed(0)} |`,
  );
void startedAt;
try {
  const idleRss = rssMb();
  const stages: { s: number; p99: number; rssMb: number }[] = [];
  const up = await stage(async () => {
    const { body, headers } = multipart(file);
    const res = await call('/api/upload', { method: 'POST', body, headers, duplex: 'half' });
    return (await res.json()) as { file: { id: string; rowCount: number } };
  });
  row('upload', up);
  stages.push(up);
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
  stages.push(v);
  if (v.result.rowsChecked !== ROWS) throw new Error(`validated ${v.result.rowsChecked} rows of ${ROWS}`);
  if (v.result.rowsWithErrors > 0) throw new Error(`${v.result.rowsWithErrors} rows with errors`);
  await call(`/api/uploads/${id}/status`, {
    method: 'PATCH',
    headers: json,
    body: JSON.stringify({ status: 'validated' }),
  });
  const p = await stage(
    async () => (await (await call(`/api/uploads/${id}/prepare`)).json()) as { totalCount: number },
  );
  row('prepare', p);
  stages.push(p);
  const events = p.result.totalCount;
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
