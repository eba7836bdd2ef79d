/**
 * packages/core throughput on a generated CRM export: parse only (the ceiling), the full pipeline
 * (read → validate and correct → build and hash events → JSON), and the same rows through the Meta SDK's
 * normalize-and-hash (what a developer would otherwise write), plus the full pipeline on two worker threads.
 */
import { createReadStream, statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { buildEvent, createCsvReader, createRowValidator, DEFAULT_FILE_SETTINGS } from '@backsignal/core';
import { generateCsv } from './generate.ts';
import { ServerSideUtils } from 'facebook-nodejs-business-sdk';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const NOW = Math.floor(Date.now() / 1000);
const MAPPINGS = {
  email: 'email', phone: 'phone', first_name: 'first_name', last_name: 'last_name', city: 'city', state: 'state', zip: 'zip',
  country: 'country', event_name: 'event_name', event_time: 'event_time', value: 'value', currency: 'currency', order_id: 'order_id',
};

let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);

async function timeIt(fn: () => Promise<number>) {
  globalThis.gc?.();
  peak = process.memoryUsage().rss;
  const t = performance.now();
  const rows = await fn();
  const s = (performance.now() - t) / 1000;
  return { rows, s, rps: rows / s, rssMb: peak / 1024 / 1024 };
}

async function eachRow(file: string, onRow: (values: string[], rowNumber: number, headers: string[]) => void): Promise<number> {
  const reader = createCsvReader();
  let headers: string[] = [];
  let n = 0;
  const take = (items: ReturnType<typeof reader.push>) => {
    for (const it of items) {
      if (it.kind === 'header') headers = it.info.headers;
      else if (it.kind === 'row') {
        n++;
        onRow(it.values, it.rowNumber, headers);
      }
    }
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) take(reader.push(chunk as Uint8Array));
  take(reader.end());
  return n;
}

const file = await generateCsv(ROWS, NOW);
const mb = statSync(file).size / 1024 / 1024;

const parse = await timeIt(() => eachRow(file, () => {}));

let bytesOut = 0;
const pipeline = await timeIt(() => {
  let validate: ReturnType<typeof createRowValidator> | null = null;
  return eachRow(file, (values, rowNumber, headers) => {
    validate ??= createRowValidator({ headers, mappings: MAPPINGS, hardcoded: { action_source: 'physical_store' }, settings: DEFAULT_FILE_SETTINGS, now: NOW });
    const r = validate(values, rowNumber);
    if (!r.errors.length) bytesOut += JSON.stringify(buildEvent(r)).length;
  });
});

const SDK_FIELDS: [number, string][] = [[0, 'em'], [1, 'ph'], [2, 'fn'], [3, 'ln'], [4, 'ct'], [5, 'st'], [6, 'zp'], [7, 'country']];
let sdkErrors = 0;
const sdk = await timeIt(() =>
  eachRow(file, (values) => {
    const event: Record<string, unknown> = { event_name: values[8], event_time: Number(values[9]) || Date.parse(values[9]!) / 1000, user_data: {} };
    for (const [i, key] of SDK_FIELDS) {
      try {
        (event.user_data as Record<string, unknown>)[key] = ServerSideUtils.normalizeAndHash(values[i]!, key);
      } catch {
        sdkErrors++;
      }
    }
    JSON.stringify(event);
  }),
);

// Two workers, each on half of the file (split at a line break; the generated file has no quoted newlines).
const threads = await timeIt(async () => {
  const size = statSync(file).size;
  const results = await Promise.all(
    [0, 1].map(
      (part) =>
        new Promise<number>((resolve, reject) => {
          const w = new Worker(fileURLToPath(new URL('./core-worker.mjs', import.meta.url)), { workerData: { file, part, size, mappings: MAPPINGS, now: NOW } });
          w.on('message', resolve);
          w.on('error', reject);
        }),
    ),
  );
  return results.reduce((a, b) => a + b, 0);
});
clearInterval(sampler);

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(`file: ${fmt(ROWS)} rows, ${mb.toFixed(0)} MB; Node ${process.version}; ${bytesOut ? 'events built' : ''}`);
console.log('| path | seconds | rows/s | vs parse-only | peak RSS MB |');
console.log('|---|---|---|---|---|');
for (const [name, r] of [
  ['parse only (ceiling)', parse],
  ['full pipeline, 1 core', pipeline],
  ['Meta SDK normalizeAndHash, 1 core', sdk],
  ['full pipeline, 2 worker threads', threads],
] as const) {
  console.log(`| ${name} | ${r.s.toFixed(2)} | ${fmt(r.rps)} | ${(r.rps / parse.rps).toFixed(2)}x | ${r.rssMb.toFixed(0)} |`);
}
console.log(`\nfull pipeline vs SDK path: ${(pipeline.rps / sdk.rps).toFixed(2)}x; 2 threads vs 1: ${(threads.rps / pipeline.rps).toFixed(2)}x; SDK threw on ${fmt(sdkErrors)} values.`);
