/**
 * Issue 30: does forgot-password answer in the same time for an address with an account and one without? On the
 * real server (as `npm start` runs it; BENCH_DATABASE_URL for PostgreSQL), 30 known and 30 unknown addresses are
 * asked for in turn, each address once (one address may get only 5 links in 15 minutes), and the answers' times
 * are printed side by side with their ratio. The known addresses are signed up first and never verified.
 */
import { json, startBenchServer } from './api-server.ts';

const N = Number(process.env.BENCH_FORGOT_N ?? 30);
const PORT = Number(process.env.BENCH_FORGOT_PORT ?? 3963);
const { base, stop } = await startBenchServer({
  name: 'forgot',
  port: PORT,
  env: { SIGNUPS_PER_IP_PER_HOUR: '1000', RUN_WORKER: 'false' },
});

/** A guest as the browser is one: the XSRF cookie from a first GET, sent back with its header. */
async function guestPost(path: string, body: unknown): Promise<number> {
  const me = await fetch(`${base}/auth/me`);
  const xsrf = me.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('XSRF-TOKEN='))!;
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...json, cookie: xsrf, 'x-xsrf-token': xsrf.slice('XSRF-TOKEN='.length) },
    body: JSON.stringify(body),
  });
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ms;
}

const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
  return { p50: at(0.5), p90: at(0.9), mean: s.reduce((a, b) => a + b, 0) / s.length };
};

try {
  const known = Array.from({ length: N }, (_, i) => `known-${i}@example.com`);
  for (const email of known)
    await guestPost('/auth/signup', { email, firstName: 'Bench', password: 'Bench-Mark-2026!' });
  const times = { known: [] as number[], unknown: [] as number[] };
  // Interleaved, so a slower stretch of the machine lands on both sides alike.
  for (let i = 0; i < N; i++) {
    times.known.push(await guestPost('/auth/forgot-password', { email: known[i] }));
    times.unknown.push(await guestPost('/auth/forgot-password', { email: `unknown-${i}@example.com` }));
  }
  const k = stats(times.known);
  const u = stats(times.unknown);
  console.log(
    `${N} of each, interleaved, ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}`,
  );
  console.log('| address | p50 ms | p90 ms | mean ms |');
  console.log('|---|---|---|---|');
  console.log(`| known | ${k.p50.toFixed(2)} | ${k.p90.toFixed(2)} | ${k.mean.toFixed(2)} |`);
  console.log(`| unknown | ${u.p50.toFixed(2)} | ${u.p90.toFixed(2)} | ${u.mean.toFixed(2)} |`);
  console.log(`known / unknown: p50 ${(k.p50 / u.p50).toFixed(2)}x, mean ${(k.mean / u.mean).toFixed(2)}x`);
} finally {
  await stop();
}
