/**
 * packages/core throughput on a generated CRM export: parse only (the ceiling), the full pipeline
 * (read → validate and correct → hash and write each event's JSON, as the API's pipeline worker does), and the same rows through the Meta SDK's
 * normalize-and-hash (what a developer would otherwise write), plus the full pipeline on two worker threads.
 *
 * Each path runs in its own child process (`--path=<name>`), so one path's heap, and the SDK's modules, never
 * count in another's memory, and peak RSS is the process's own high-water mark (getrusage maxrss: startup,
 * tsx's loader thread and worker threads included), not a sample.
 */
import { createReadStream, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OnRow } from './core-rows.ts';
import { GENERATED_MAPPINGS as MAPPINGS, generateCsv } from './generate.ts';
import { spawnSync } from 'node:child_process';
import { bundledWorker } from '../apps/api/src/lib/bundled-worker.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const NOW = Number(process.env.BENCH_NOW ?? Math.floor(Date.now() / 1000));

async function timeIt(fn: () => Promise<number>) {
  const t = performance.now();
  const rows = await fn();
  const s = (performance.now() - t) / 1000;
  return { rows, s, rps: rows / s, rssMb: process.resourceUsage().maxRSS / 1024 };
}

// The API streams stored files in 64 KB chunks (upload_chunks); the reader answers a chunk's rows at once, so the
// chunk size sets how many rows are alive together.
const CHUNK = Number(process.env.BENCH_CHUNK_KB ?? 64) * 1024;

async function eachRow(file: string, onRow: OnRow): Promise<number> {
  // Loaded before the clock starts (below); not at the top, because the two-thread path's parent never reads
  // rows, and its peak RSS should not count a core it does not run (its workers carry their own bundled copy).
  const { rowReader } = await import('./core-rows.ts');
  const rows = rowReader(onRow);
  for await (const chunk of createReadStream(file, { highWaterMark: CHUNK })) rows.push(chunk as Uint8Array);
  return rows.end();
}

const SDK_FIELDS: [number, string][] = [
  [0, 'em'],
  [1, 'ph'],
  [2, 'fn'],
  [3, 'ln'],
  [4, 'ct'],
  [5, 'st'],
  [6, 'zp'],
  [7, 'country'],
];

const PATHS = {
  parse: (file: string) => eachRow(file, () => {}),

  pipeline: async (file: string) => {
    const { pipelineRows } = await import('./core-rows.ts');
    const { onRow, stats } = pipelineRows(MAPPINGS, NOW);
    return eachRow(file, onRow).finally(() =>
      Object.assign(extra, { events: stats.events, jsonMb: stats.jsonChars / 1024 / 1024 }),
    );
  },

  // What a developer would write with the SDK: its normalize-and-hash per customer key, a try/catch per value
  // (it throws on values it rejects; the event then goes without that key), and JSON.
  sdk: async (file: string) => {
    const { ServerSideUtils } = await import('facebook-nodejs-business-sdk');
    let thrown = 0;
    const n = await eachRow(file, (values) => {
      const event: Record<string, unknown> = {
        event_name: values[8],
        event_time: Number(values[9]) || Date.parse(values[9]!) / 1000,
        user_data: {},
      };
      for (const [i, key] of SDK_FIELDS) {
        try {
          (event.user_data as Record<string, unknown>)[key] = ServerSideUtils.normalizeAndHash(
            values[i]!,
            key,
          );
        } catch {
          thrown++;
        }
      }
      JSON.stringify(event);
    });
    extra.sdkThrown = thrown;
    return n;
  },

  // Two workers, each on half of the file, started the way the API starts its pipeline workers (split at a line
  // break; the generated file has no quoted newlines). They are started, and have loaded their code, before the
  // clock starts (see `threadsReady`), as the one-core paths load theirs first: rows/s counts no start-up.
  threads: async () => {
    const counts = await Promise.all(
      threadsReady!.map(
        (w) =>
          new Promise<number>((resolve, reject) => {
            w.once('message', resolve);
            w.once('error', reject);
            w.postMessage('go');
          }),
      ),
    );
    return counts.reduce((a, b) => a + b, 0);
  },
};
type PathName = keyof typeof PATHS;

// What the machine itself gives a second thread right now: the same CPU-bound loop (short SHA-256 digests:
// native work, little garbage) alone, then in two threads at once. A shared VM whose second core is busy elsewhere
// shows it here, and the two-thread pipeline cannot beat it.
const SPIN = `const { hash } = require('node:crypto');
let x = 0; const t = performance.now();
for (let i = 0; i < 1_000_000; i++) x += hash('sha256', 'backsignal' + i, 'hex').length;
require('node:worker_threads').parentPort?.postMessage(performance.now() - t);`;
async function headroom(): Promise<number> {
  const { Worker } = await import('node:worker_threads');
  const spin = () =>
    new Promise<number>((resolve, reject) => {
      const w = new Worker(SPIN, { eval: true });
      w.once('message', resolve);
      w.once('error', reject);
    });
  // Each loop reports its own time, so a thread's start-up is not counted.
  const one = await spin();
  const both = await Promise.all([spin(), spin()]);
  return (2 * one) / Math.max(...both);
}
const extra: { sdkThrown?: number; events?: number; jsonMb?: number } = {};

const only = process.argv.find((a) => a.startsWith('--path='))?.slice(7) as PathName | undefined;
const fileArg = process.argv.find((a) => a.startsWith('--file='))?.slice(7) ?? '';
// The bundle is built as the API builds its worker bundle at start-up; each worker says when it is ready.
const threadsReady =
  only === 'threads' ? await startThreads(bundledWorker(new URL('./core-worker.ts', import.meta.url))) : null;
async function startThreads(start: ReturnType<typeof bundledWorker>) {
  const size = statSync(fileArg).size;
  return Promise.all(
    ([0, 1] as const).map(
      (part) =>
        new Promise<ReturnType<typeof start>>((resolve, reject) => {
          const w = start({ file: fileArg, part, size, mappings: MAPPINGS, now: NOW, chunk: CHUNK });
          w.once('message', () => resolve(w));
          w.once('error', reject);
        }),
    ),
  );
}
if (only) {
  if (only !== 'threads') await import('./core-rows.ts');
  // The SDK's modules too (~0.3 s to load): rows/s counts neither side's start-up.
  if (only === 'sdk') await import('facebook-nodejs-business-sdk');
  // Child: one path, one JSON line for the parent.
  const r = await timeIt(() => PATHS[only](fileArg));
  console.log(JSON.stringify({ ...r, ...extra }));
  process.exit(0);
}

// BENCH_INTERNATIONAL_PHONES=1: half the phones outside North America, as issue 22's file (the SDK ratio is lower
// there: libphonenumber does more per number).
const file = await generateCsv(ROWS, NOW, {
  internationalPhones: process.env.BENCH_INTERNATIONAL_PHONES === '1',
});
const machine = await headroom();
const mb = statSync(file).size / 1024 / 1024;
const here = fileURLToPath(import.meta.url);
function run(path: PathName): Awaited<ReturnType<typeof timeIt>> & typeof extra {
  const r = spawnSync(process.execPath, [...process.execArgv, here, `--path=${path}`, `--file=${file}`], {
    encoding: 'utf8',
    env: { ...process.env, BENCH_NOW: String(NOW) },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`${path} failed (exit ${r.status})`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}
// Shared machines are noisy: each path runs BENCH_REPEAT times (default 3), the paths interleaved so a slow
// spell hits all of them alike, and the median run of each is reported (its peak RSS the highest seen).
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const runs: Record<PathName, ReturnType<typeof run>[]> = { parse: [], pipeline: [], sdk: [], threads: [] };
for (let i = 0; i < REPEAT; i++)
  for (const path of Object.keys(runs) as PathName[]) runs[path].push(run(path));
function median(path: PathName): ReturnType<typeof run> {
  const sorted = runs[path].slice().sort((a, b) => a.rps - b.rps);
  return { ...sorted[sorted.length >> 1]!, rssMb: Math.max(...sorted.map((r) => r.rssMb)) };
}
const parse = median('parse');
const pipeline = median('pipeline');
const sdk = median('sdk');
const threads = median('threads');

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(
  `file: ${fmt(ROWS)} rows, ${mb.toFixed(0)} MB; Node ${process.version}; each path in its own process, ` +
    `${REPEAT} runs each (median; rows/s of every run: ${Object.entries(runs)
      .map(([k, rs]) => `${k} ${rs.map((r) => fmt(r.rps)).join('/')}`)
      .join(', ')})`,
);
console.log(
  `full pipeline: ${fmt(pipeline.events ?? 0)} events built (${(pipeline.jsonMb ?? 0).toFixed(0)} MB of JSON, not kept)`,
);
console.log('| path | seconds | rows/s | vs parse-only | peak RSS MB |');
console.log('|---|---|---|---|---|');
for (const [name, r] of [
  ['parse only (ceiling)', parse],
  ['full pipeline, 1 core', pipeline],
  ['Meta SDK normalizeAndHash, 1 core', sdk],
  ['full pipeline, 2 worker threads', threads],
] as const) {
  console.log(
    `| ${name} | ${r.s.toFixed(2)} | ${fmt(r.rps)} | ${(r.rps / parse.rps).toFixed(2)}x | ${r.rssMb.toFixed(0)} |`,
  );
}
const values = ROWS * SDK_FIELDS.length;
// Each round runs the paths back to back: a round's own ratio shows how far the machine's drift moves it.
const rounds = runs.pipeline.map((r, i) => (r.rps / runs.sdk[i]!.rps).toFixed(2)).join(', ');
console.log(
  `\nfull pipeline vs SDK path: ${(pipeline.rps / sdk.rps).toFixed(2)}x (each round: ${rounds}); 2 threads vs 1: ` +
    `${(threads.rps / pipeline.rps).toFixed(2)}x, where the machine gave a second thread ${machine.toFixed(2)}x ` +
    '(one hashing loop alone, then two at once).',
);
// Each path does the same work in every run, so the spread of its runs shows how busy the host was meanwhile.
const spreads = Object.entries(runs).map(([name, rs]) => {
  const rps = rs.map((r) => r.rps);
  return [name, Math.max(...rps) / Math.min(...rps)] as const;
});
console.log(
  `Run-to-run spread (fastest / slowest run of a path): ${spreads.map(([n, x]) => `${n} ${x.toFixed(2)}x`).join(', ')}.` +
    // Parse-only is left out: its runs are short (~1 s), and the verdicts are about the other three.
    (spreads.some(([n, x]) => n !== 'parse' && x > 1.2)
      ? ' Over 1.2x outside parse-only: the host was busy during this bench, and its verdicts below are not reliable; run it again on a quiet machine.'
      : ''),
);
console.log(
  `\nAbout the SDK path: ServerSideUtils.normalizeAndHash threw on ${fmt(sdk.sdkThrown ?? 0)} of ${fmt(values)} values ` +
    `(${(((sdk.sdkThrown ?? 0) / values) * 100).toFixed(1)}%). It throws on country names ('United States', 'usa', 'Germany', 'France': ` +
    'it only takes ISO alpha-2 codes) and on emails written with mailto:; a developer has to catch each throw, and the event then goes ' +
    'to Meta without that key. Backsignal corrects those values and reports the correction instead. The SDK path also does less per row: ' +
    'no validation, no event_time parsing beyond Number/Date.parse, no country code on phones, no event_id; the timing includes its ' +
    'throws (an Error with a stack per throw), as a developer using it would pay them.',
);

const targets: [string, boolean, string][] = [
  ['full pipeline ≥ 100,000 rows/s on one core', pipeline.rps >= 100_000, `${fmt(pipeline.rps)} rows/s`],
  ['full pipeline ≥ 3x the SDK path', pipeline.rps >= 3 * sdk.rps, `${(pipeline.rps / sdk.rps).toFixed(2)}x`],
  ['peak RSS ≤ 200 MB, full pipeline on one core', pipeline.rssMb <= 200, `${pipeline.rssMb.toFixed(0)} MB`],
  [
    'peak RSS ≤ 200 MB, full pipeline on 2 worker threads',
    threads.rssMb <= 200,
    `${threads.rssMb.toFixed(0)} MB`,
  ],
  [
    '2 worker threads ≥ 1.6x one core',
    threads.rps >= 1.6 * pipeline.rps,
    `${(threads.rps / pipeline.rps).toFixed(2)}x`,
  ],
];
console.log('\nTargets (issue):');
for (const [what, met, got] of targets) console.log(`- ${met ? 'MET    ' : 'NOT MET'} ${what}: ${got}`);
console.log(
  '\nRows/s depend on the machine and on what else it runs; compare runs on the same machine, back to back. Peak RSS includes ' +
    "Node's own ~40 MB and tsx's loader thread (~35 MB), which the bench runs under; the server runs bundled, without tsx (decision 0093).",
);
