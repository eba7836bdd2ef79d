/**
 * The API path of issue 4: a generated file through upload, validate and prepare on the real server
 * (`apps/api/src/server.ts` in a child process, as `npm start` runs it), printing seconds per stage, rows/s,
 * the server's peak RSS, and /api/health latency (p50/p99) measured from this process while each stage runs.
 * BENCH_API_ROWS sets the sizes (default "100000,1000000"); BENCH_DATABASE_URL runs the server on PostgreSQL
 * (a fresh database there, dropped at the end) instead of the embedded one. The upload limit is raised to
 * 400 MB for the 1,000,000-row file: the product's default is 10 MB.
 */
import { spawn } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { GENERATED_MAPPINGS as MAPPINGS, generateCsv } from './generate.ts';

const SIZES = (process.env.BENCH_API_ROWS ?? '100000,1000000').split(',').map(Number);
const PORT = Number(process.env.BENCH_API_PORT ?? 3960);
const base = `http://127.0.0.1:${PORT}`;

const dataDir = mkdtempSync(join(tmpdir(), 'bs-bench-api-'));
const serverUrl = process.env.BENCH_DATABASE_URL;
const dbName = `bs_bench_${Date.now()}`;
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
  RUN_WORKER: 'false',
  MAX_UPLOAD_MB: '400',
  DATABASE_URL: databaseUrl,
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
// Signup answers before its mail is written, and starts no session (issue 21): wait for the mail, verify, log in.
let mailFile: string | undefined;
for (let i = 0; i < 100 && !mailFile; i++) {
  mailFile = existsSync(outbox) ? readdirSync(outbox)[0] : undefined;
  if (!mailFile) await new Promise((r) => setTimeout(r, 100));
}
const mail = JSON.parse(readFileSync(join(outbox, mailFile!), 'utf8')) as { text: string };
const link = new URL(/https?:\/\/\S+\/verify\?token=[\w-]+/.exec(mail.text)![0]);
await call(`/auth/verify${link.search}`);
await call('/auth/login', {
  method: 'POST',
  headers: json,
  body: JSON.stringify({ email: 'bench@example.com', password: 'Bench-Mark-2026!' }),
});

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
