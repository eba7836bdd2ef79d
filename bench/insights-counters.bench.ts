/**
 * Issue 33: what counting identifiers adds to a 1M-row send (target: under 1 %). A send's per-row CPU work is the
 * pipeline worker's (read the CSV, validate and correct, write the event's JSON); Insights adds core's matchCode per
 * row there and, on the sending thread, tallyMatches per batch of 1,000. The bench reads the generated file through
 * validate + write, with and without matchCode, in 3 interleaved rounds (median; their difference is within the
 * machine's noise), and times matchCode alone over the validated rows and tallyMatches over their codes in batches
 * (median of 3). The ratio it prints, (matchCode + tally) / (validate + write), is an upper bound
 * of the share in a whole send, which also waits for Meta and commits batches (the run's end statement adds one
 * aggregate over the run's batch rows, a few milliseconds, not per row). BENCH_ROWS sets the size.
 */
import { createReadStream } from 'node:fs';
import {
  createEventWriter,
  createRowValidator,
  DEFAULT_FILE_SETTINGS,
  matchCode,
  type EncodedEvent,
} from '@backsignal/core';
import { tallyMatches } from '../apps/api/src/modules/delivery/delivery.match-tally.ts';
import { rowReader } from './core-rows.ts';
import { GENERATED_MAPPINGS, generateCsv } from './generate.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const NOW = Math.floor(Date.now() / 1000);
const file = await generateCsv(ROWS, NOW);

/** One pass over the file: validate and write every row, and its match code when `withCodes`. */
async function pass(
  withCodes: boolean,
  keep: Record<string, string>[] | null = null,
): Promise<{ ms: number; codes: Uint16Array }> {
  const codes = new Uint16Array(ROWS);
  let validate: ReturnType<typeof createRowValidator> | null = null;
  const write = createEventWriter();
  let n = 0;
  const reader = rowReader((values, rowNumber, headers) => {
    validate ??= createRowValidator({
      headers,
      mappings: GENERATED_MAPPINGS,
      hardcoded: { action_source: 'physical_store' },
      settings: DEFAULT_FILE_SETTINGS,
      now: NOW,
    });
    const r = validate(values, rowNumber);
    if (r.errors.length) return;
    write(r);
    keep?.push(r.effectiveRow);
    if (withCodes) codes[n] = matchCode(r.effectiveRow);
    n++;
  });
  const t = performance.now();
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 }))
    reader.push(chunk as Uint8Array);
  reader.end();
  return { ms: performance.now() - t, codes: codes.subarray(0, n) };
}

function tallyMs(codes: Uint16Array): number {
  const events: EncodedEvent[] = Array.from(codes, (match) => ({
    event_name: 'Lead',
    event_id: '',
    json: '',
    match,
  }));
  const t = performance.now();
  for (let i = 0; i < events.length; i += 1000) tallyMatches(events.slice(i, i + 1000));
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: Record<string, string>[] = [];
await pass(true, rows); // warm-up: JIT and the file in the page cache; keeps the validated rows
function codesMs(): number {
  const t = performance.now();
  let x = 0;
  for (const r of rows) x ^= matchCode(r);
  const ms = performance.now() - t;
  if (x < 0) console.log(x); // keeps the loop from being optimised away
  return ms;
}
const alone = [codesMs(), codesMs(), codesMs()];
const without: number[] = [];
const withCodes: number[] = [];
const tally: number[] = [];
let codes: Uint16Array = new Uint16Array();
for (let round = 0; round < 3; round++) {
  without.push((await pass(false)).ms);
  const w = await pass(true);
  withCodes.push(w.ms);
  codes = w.codes;
  tally.push(tallyMs(codes));
}
const base = median(without);
const added = median(alone) + median(tally);
console.log(`${ROWS} rows, ${codes.length} events, 3 interleaved rounds, medians`);
console.log('| pass | ms |');
console.log('|---|---|');
console.log(`| validate + write (the send's per-row work) | ${base.toFixed(0)} |`);
console.log(`| validate + write + matchCode | ${median(withCodes).toFixed(0)} |`);
console.log(`| matchCode alone, every validated row | ${median(alone).toFixed(1)} |`);
console.log(`| tallyMatches, batches of 1,000 | ${median(tally).toFixed(1)} |`);
console.log(`counters' share: ${((added / base) * 100).toFixed(2)} % of the per-row work (target < 1 %)`);
