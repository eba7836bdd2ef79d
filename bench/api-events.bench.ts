/**
 * Issue 32: `POST /api/v1/events` with 10,000 rows a call, on the real server (as `npm start` runs it;
 * BENCH_DATABASE_URL for PostgreSQL), sending to the fake Graph API answering in BENCH_GRAPH_DELAY_MS (default
 * 50 ms) with the default batch size and concurrency. BENCH_EVENTS_CALLS calls (default 10), one after another,
 * each with 10,000 rows of their own (new customers, so the pixel's ledger leaves none out): sustained events/s
 * (rows sent over the calls' total time) and p50/p99 per call.
 * Baseline in the same run, interleaved call by call: the same number of rows as a CSV file through the screens'
 * path (upload, map, validate job, validated, prepare job, send, summary polled until the run ends).
 */
import { randomUUID } from 'node:crypto';
import { startFakeGraph } from '../e2e/fake-graph/fake-graph.ts';
import { json, startBenchServer } from './api-server.ts';

const ROWS = 10_000;
const CALLS = Number(process.env.BENCH_EVENTS_CALLS ?? 10);
const graph = await startFakeGraph({
  delayMs: Number(process.env.BENCH_GRAPH_DELAY_MS ?? 50),
  record: false,
});
const { base, call, databaseUrl, stop } = await startBenchServer({
  name: 'api_events',
  port: Number(process.env.BENCH_EVENTS_PORT ?? 3966),
  env: { META_GRAPH_URL: graph.url, API_KEY_REQUESTS_PER_MINUTE: '10000', QUOTA_ROWS_PER_DAY: '100000000' },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const when = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 16).replace('T', ' ');
const MAPPINGS = {
  Email: 'email',
  Phone: 'phone',
  'First name': 'first_name',
  Event: 'event_name',
  When: 'event_time',
  Value: 'value',
  Currency: 'currency',
  Source: 'action_source',
};

/** 10,000 rows of a customer each, with the mess a real export has (case, spaces, phone formats). */
function rows(tag: string) {
  return Array.from({ length: ROWS }, (_, i) => ({
    Email: i % 7 ? `${tag}-${i}@example.com` : ` ${tag.toUpperCase()}-${i}@Example.com `,
    Phone: `+1 (512) 555-${String(i % 10_000).padStart(4, '0')}`,
    'First name': i % 3 ? 'Ann' : 'JOSÉ',
    Event: 'Purchase',
    When: when,
    Value: (i % 500) + 0.99,
    Currency: 'usd',
    Source: 'physical_store',
  }));
}
const csvCell = (v: unknown) => `"${String(v).replace(/"/g, '""')}"`;
const asCsv = (r: Record<string, unknown>[]) =>
  [
    Object.keys(MAPPINGS).map(csvCell).join(','),
    ...r.map((x) =>
      Object.keys(MAPPINGS)
        .map((k) => csvCell(x[k]))
        .join(','),
    ),
  ].join('\r\n');

try {
  const account = (await (
    await call('/api/meta/accounts', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        name: 'Main store',
        pixelId: '123456789012345',
        accessToken: 'EAAB-bench-token-1234',
      }),
    })
  ).json()) as { id: string };
  const { secret } = (await (
    await call('/api/workspace/api-keys', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'bench', scope: 'send' }),
    })
  ).json()) as { secret: string };

  async function viaApi(): Promise<{ ms: number; sent: number }> {
    const body = JSON.stringify({
      rows: rows(randomUUID().slice(0, 8)),
      mappings: MAPPINGS,
      pixelAccount: account.id,
    });
    const t = performance.now();
    const res = await fetch(`${base}/api/v1/events`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${secret}`, 'idempotency-key': randomUUID() },
      body,
    });
    const out = (await res.json()) as { counts: { sent: number }; message?: string };
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`events: ${res.status} ${JSON.stringify(out)}`);
    return { ms, sent: out.counts.sent };
  }

  async function job(id: string, kind: 'validate' | 'prepare') {
    const url = `/api/uploads/${id}/jobs/${kind}`;
    await call(url, { method: 'POST' });
    for (;;) {
      const { job } = (await (await call(url)).json()) as { job: { status: string } };
      if (job.status === 'done') return;
      if (job.status === 'failed') throw new Error(`${kind} failed`);
      await sleep(50);
    }
  }

  async function viaCsv(): Promise<{ ms: number; sent: number }> {
    const csv = asCsv(rows(randomUUID().slice(0, 8)));
    const boundary = `----bench${Date.now()}`;
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="leads.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    const t = performance.now();
    const up = (await (
      await call('/api/upload', {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: multipart,
      })
    ).json()) as { file: { id: string } };
    const id = up.file.id;
    await call(`/api/uploads/${id}/status`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ status: 'mapped', mappings: MAPPINGS, hardcodedValues: {} }),
    });
    await job(id, 'validate');
    await call(`/api/uploads/${id}/status`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ status: 'validated' }),
    });
    await job(id, 'prepare');
    // The screens' send is limited to 10 a minute per person; a wait for that limit is left off the clock.
    let waited = 0;
    for (;;) {
      try {
        await call(`/api/uploads/${id}/send`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ selectedAccountId: account.id }),
        });
        break;
      } catch (err) {
        if (!/: 429 /.test(String(err))) throw err;
        waited += 5000;
        await sleep(5000);
      }
    }
    for (;;) {
      const s = (await (await call(`/api/uploads/${id}/summary`)).json()) as {
        status: string;
        progress: { eventsSent: number };
      };
      if (s.status !== 'running') return { ms: performance.now() - t - waited, sent: s.progress.eventsSent };
      await sleep(50);
    }
  }

  // Warm both paths (bundled workers, statement plans) before the clock.
  await viaApi();
  await viaCsv();
  const api: { ms: number; sent: number }[] = [];
  const csv: { ms: number; sent: number }[] = [];
  for (let i = 0; i < CALLS; i++) {
    api.push(await viaApi());
    csv.push(await viaCsv());
  }
  const line = (name: string, r: { ms: number; sent: number }[]) => {
    const ms = r.map((x) => x.ms).sort((a, b) => a - b);
    const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(ms.length * p))]!;
    const total = r.reduce((a, x) => a + x.ms, 0) / 1000;
    const sent = r.reduce((a, x) => a + x.sent, 0);
    return `| ${name} | ${r.length} | ${sent} | ${at(0.5).toFixed(0)} | ${at(0.99).toFixed(0)} | ${Math.round(sent / total)} |`;
  };
  console.log(
    `${CALLS} calls of ${ROWS} rows each, interleaved; ${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'}; fake Graph ${process.env.BENCH_GRAPH_DELAY_MS ?? 50} ms a batch`,
  );
  console.log('| path | calls | events sent | p50 ms per call | p99 ms per call | sustained events/s |');
  console.log('|---|---|---|---|---|---|');
  console.log(line('POST /api/v1/events (10,000 rows as JSON)', api));
  console.log(line('baseline: CSV upload, map, validate, prepare, send, summary', csv));
} finally {
  await stop();
  await graph.close();
}
