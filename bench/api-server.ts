/**
 * The real server for the API benches: `apps/api/src/server.ts` in a child process, as `npm start` runs it, on a
 * fresh data folder and, with BENCH_DATABASE_URL, a scratch PostgreSQL database (dropped by `stop`). Gives a
 * signed-in browser-like client and `stage`, which times work while pinging /api/ready and sampling RSS.
 * /api/ready makes one database round trip, as /api/health did before issue 30 made it a liveness check, so
 * the "health p99" figures stay comparable with earlier ones: a request's latency through the database's lanes.
 */
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { bundleServer } from '../scripts/server-bundle.mjs';
import { SERVER_NODE_ARGS, serverEnv } from '../scripts/server-process.mjs';
import { GENERATED_MAPPINGS } from './generate.ts';

export const json = { 'content-type': 'application/json' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startBenchServer(opts: { name: string; port: number; env?: NodeJS.ProcessEnv }) {
  const base = `http://127.0.0.1:${opts.port}`;
  const dataDir = mkdtempSync(join(tmpdir(), `bs-bench-${opts.name}-`));
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const dbName = `bs_bench_${opts.name}_${Date.now()}`;
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

  const env: NodeJS.ProcessEnv = serverEnv({
    ...process.env,
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_URL: base,
    LOG_LEVEL: 'warn',
    // The 1,000,000-row files are far past the product's 10 MB default.
    MAX_UPLOAD_MB: '400',
    ...opts.env,
    // e.g. BENCH_SERVER_ENV="MALLOC_ARENA_MAX=2" to try an allocator setting on the server alone
    ...Object.fromEntries(
      (process.env.BENCH_SERVER_ENV ?? '')
        .split(' ')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    ),
  });
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  // The server as `npm start` runs it (scripts/start.mjs): bundled, without a TypeScript loader.
  const bundles = await bundleServer();
  const server = spawn(
    process.execPath,
    [
      ...SERVER_NODE_ARGS,
      // e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server; a later V8 flag
      // wins over the same one in SERVER_NODE_ARGS
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      bundles.server,
    ],
    { env, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const stop = async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    if (serverUrl) await admin(`drop database if exists ${dbName} with (force)`);
  };

  const healthy = () =>
    fetch(`${base}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
  for (let i = 0; !(await healthy()); i++) {
    if (i > 600) throw new Error('the server did not start');
    await sleep(100);
  }

  /** A browser-like session: keeps the cookies and sends the XSRF header on every call. */
  const cookies = new Map<string, string>();
  /** The longest single request of the workflow so far (a proxy in front would cut one past its timeout). */
  const longest = new Map<string, number>();
  async function call(path: string, init: RequestInit & { duplex?: 'half' } = {}) {
    const started = performance.now();
    try {
      return await callOnce(path, init);
    } finally {
      const ms = performance.now() - started;
      const what = `${init.method ?? 'GET'} ${path.replace(/[0-9a-f-]{36}/g, ':id').replace(/\?.*/, '')}`;
      longest.set(what, Math.max(ms, longest.get(what) ?? 0));
    }
  }
  async function callOnce(path: string, init: RequestInit & { duplex?: 'half' }) {
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

  // Sign up, open the verification link from the outbox, log in (signup starts no session: issue 21).
  const account = { email: 'bench@example.com', password: 'Bench-Mark-2026!' };
  await call('/auth/me');
  await call('/auth/signup', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ ...account, firstName: 'Bench' }),
  });
  const outbox = join(dataDir, 'outbox');
  // The mail may be written after signup answers (a queued job): wait until it is there and whole.
  const readMail = (): { text: string } | null => {
    try {
      return JSON.parse(readFileSync(join(outbox, readdirSync(outbox)[0]!), 'utf8')) as { text: string };
    } catch {
      return null;
    }
  };
  let mail = readMail();
  for (let i = 0; !mail; i++) {
    if (i > 600) throw new Error('no verification mail in the outbox');
    await sleep(100);
    mail = readMail();
  }
  const link = new URL(/https?:\/\/\S+\/verify\?token=[\w-]+/.exec(mail.text)![0]);
  await call(`/auth/verify${link.search}`);
  await call('/auth/login', { method: 'POST', headers: json, body: JSON.stringify(account) });

  function rssMb(): number {
    let status = '';
    try {
      status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
    } catch {
      return 0; // the server has stopped
    }
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : 0;
  }

  /** Runs a stage while pinging /api/ready every 20 ms; answers seconds, health latencies and server RSS. */
  async function stage<T>(work: () => Promise<T>) {
    const lat: number[] = [];
    let running = true;
    const pinger = (async () => {
      while (running) {
        const t = performance.now();
        // A failed ping (the server stopped after a failed stage) must not hide that stage's own error.
        if (!(await healthy())) break;
        lat.push(performance.now() - t);
        await sleep(20);
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

  return {
    base,
    databaseUrl,
    call,
    stage,
    rssMb,
    stop,
    longestRequests: (n = 3) => [...longest].sort((a, b) => b[1] - a[1]).slice(0, n),
  };
}

/** The file as a streamed multipart body: the bench holds no copy of it either. */
export function multipart(file: string) {
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

type BenchServer = Awaited<ReturnType<typeof startBenchServer>>;
export type StageFigures = { s: number; p50: number; p99: number; rssMb: number };

/**
 * Validation or prepare as the web app runs it: a background job started by a POST and polled until it has
 * finished (docs/decisions/0091), so no request lasts long.
 */
async function runJob<T>(call: BenchServer['call'], id: string, kind: 'validate' | 'prepare'): Promise<T> {
  const url = `/api/uploads/${id}/jobs/${kind}`;
  await call(url, { method: 'POST' });
  for (;;) {
    const { job } = (await (await call(url)).json()) as {
      job: { status: string; result: T; error: { message: string } | null };
    };
    if (job.status === 'done') return job.result;
    if (job.status === 'failed') throw new Error(`${kind} failed: ${job.error?.message}`);
    await sleep(250);
  }
}

/**
 * Upload, map (the generator's columns), validate and prepare one generated file, each stage timed by `stage`
 * and handed to `report`. The generator's mess is all correctable, so a row with errors means a rule changed.
 */
export async function uploadToPrepared(
  { call, stage }: Pick<BenchServer, 'call' | 'stage'>,
  file: string,
  rows: number,
  report: (name: string, r: StageFigures) => void,
) {
  const up = await stage(async () => {
    const { body, headers } = multipart(file);
    const res = await call('/api/upload', { method: 'POST', body, headers, duplex: 'half' });
    return (await res.json()) as { file: { id: string; rowCount: number } };
  });
  report('upload', up);
  const id = up.result.file.id;
  await call(`/api/uploads/${id}/status`, {
    method: 'PATCH',
    headers: json,
    body: JSON.stringify({
      status: 'mapped',
      mappings: GENERATED_MAPPINGS,
      hardcodedValues: { action_source: 'physical_store' },
    }),
  });
  const v = await stage(() => runJob<{ rowsChecked: number; rowsWithErrors: number }>(call, id, 'validate'));
  report('validate', v);
  if (v.result.rowsChecked !== rows) throw new Error(`validated ${v.result.rowsChecked} rows of ${rows}`);
  if (v.result.rowsWithErrors > 0)
    throw new Error(`${v.result.rowsWithErrors} rows with errors: prepare needs a clean file`);
  await call(`/api/uploads/${id}/status`, {
    method: 'PATCH',
    headers: json,
    body: JSON.stringify({ status: 'validated' }),
  });
  const p = await stage(() => runJob<{ totalCount: number }>(call, id, 'prepare'));
  report('prepare', p);
  return { id, events: p.result.totalCount };
}
