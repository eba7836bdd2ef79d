/**
 * Issue 33: what counting identifiers adds to a 1M-row send (target: under 1 %). A send's per-row CPU work is the
 * pipeline worker's (read the CSV, validate and correct, write the event's JSON); Insights adds each event's match
 * code there and, on the sending thread, tallyMatches per batch of 1,000. Since decision 0110's second round the
 * event writer answers the code from the fields it writes anyway; before, the worker called matchCode per row,
 * which looks up every weighted field.
 *
 * The bench reads the generated file through validate + write (median of 5), then times over the validated rows:
 * the writer alone (its code included), matchCode alone (what the worker's per-row call cost), and tallyMatches over
 * the codes in batches (medians of 5). The writer's own share of "write alone" is a few tens of ns a row, below
 * this bench's noise: decision 0110 gives it as measured against a copy of the writer without its two additions,
 * alternated in one process.
 *
 * What was fixed automatically (decision 0123) is counted the same way: the worker computes each sent event's fix
 * code from its row's corrections (fixCode, after a zero check: most rows of a clean file have none) and the
 * sending thread sums them per batch (tallyFixes). The generated file is messy on purpose (phones without country
 * codes, millisecond times, state and country names), so most of its rows have corrections: an upper bound.
 * BENCH_ROWS sets the size.
 */
import { createReadStream } from 'node:fs';
import {
  createEventWriter,
  createRowValidator,
  DEFAULT_FILE_SETTINGS,
  fixCode,
  matchCode,
  type EncodedEvent,
  type RowResult,
} from '@backsignal/core';
import { tallyFixes } from '../apps/api/src/modules/delivery/delivery.fix-tally.ts';
import { tallyMatches } from '../apps/api/src/modules/delivery/delivery.match-tally.ts';
import { rowReader } from './core-rows.ts';
import { GENERATED_MAPPINGS, generateCsv } from './generate.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const NOW = Math.floor(Date.now() / 1000);
const file = await generateCsv(ROWS, NOW);

/** One pass over the file: validate and write every row, keeping the codes (and the validated rows if asked). */
type Kept = Pick<RowResult, 'effectiveRow' | 'corrections' | 'drops'>;
async function pass(keep: Kept[] | null = null): Promise<{ ms: number; codes: Uint16Array }> {
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
    codes[n++] = write(r).match;
    keep?.push({ effectiveRow: r.effectiveRow, corrections: r.corrections, drops: r.drops });
  });
  const t = performance.now();
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 }))
    reader.push(chunk as Uint8Array);
  reader.end();
  return { ms: performance.now() - t, codes: codes.subarray(0, n) };
}

function tallyMs(codes: Uint16Array, fixes: Uint8Array, tally: (events: EncodedEvent[]) => unknown): number {
  const events: EncodedEvent[] = Array.from(codes, (match, i) => ({
    event_name: 'Lead',
    event_id: '',
    json: '',
    match,
    fixes: fixes[i]!,
  }));
  const t = performance.now();
  for (let i = 0; i < events.length; i += 1000) tally(events.slice(i, i + 1000));
  return performance.now() - t;
}

const ROUNDS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// Only the effective rows are kept: whole results for a million rows made the collector the bench's subject.
const rows: Kept[] = [];
const { codes } = await pass(rows); // warm-up: JIT and the file in the page cache; keeps the validated rows
// The worker's line, as pipeline.worker.ts writes it.
const fixOf = (r: Kept) => (r.corrections.length === 0 ? 0 : fixCode(r.corrections, r.drops));
const fixes = Uint8Array.from(rows, fixOf);
const corrected = rows.filter((r) => r.corrections.length > 0).length;
/** Times fn over every validated row; its results are folded so the loop is not optimised away. */
function overRows(fn: (r: Kept) => number): number {
  const t = performance.now();
  let x = 0;
  for (const r of rows) x ^= fn(r);
  const ms = performance.now() - t;
  if (x < 0) console.log(x);
  return ms;
}
const full: number[] = [];
const writeAlone: number[] = [];
const codeAlone: number[] = [];
const fixAlone: number[] = [];
const fixThrice: number[] = [];
const tally: number[] = [];
const fixTally: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  full.push((await pass()).ms);
  const write = createEventWriter();
  writeAlone.push(overRows((r) => write(r).match));
  codeAlone.push(overRows((r) => matchCode(r.effectiveRow)));
  fixAlone.push(overRows(fixOf));
  // The same row three times: the first call pays for reading the row from memory, the other two are what the
  // worker pays, with the row it has just validated in cache.
  fixThrice.push(overRows((r) => fixOf(r) ^ fixOf(r) ^ fixOf(r)));
  tally.push(tallyMs(codes, fixes, tallyMatches));
  fixTally.push(tallyMs(codes, fixes, tallyFixes));
}
const base = median(full);
console.log(`${ROWS} rows, ${codes.length} events, ${ROUNDS} rounds, medians`);
console.log('| pass | ms |');
console.log('|---|---|');
console.log(
  `| validate + write, the writer answering each code (the send's per-row work) | ${base.toFixed(0)} |`,
);
console.log(`| write alone, every validated row | ${median(writeAlone).toFixed(0)} |`);
console.log(
  `| matchCode alone, every validated row (the per-row call before) | ${median(codeAlone).toFixed(1)} |`,
);
console.log(`| tallyMatches, batches of 1,000 | ${median(tally).toFixed(1)} |`);
console.log(
  `| fix code (zero check, then fixCode), every validated row; ${((corrected / rows.length) * 100).toFixed(0)} % have corrections | ${median(fixAlone).toFixed(1)} |`,
);
console.log(`| tallyFixes, batches of 1,000 | ${median(fixTally).toFixed(1)} |`);
console.log(
  `a per-row matchCode call + tally would be ${(((median(codeAlone) + median(tally)) / base) * 100).toFixed(2)} % ` +
    `of the per-row work; tally alone ${((median(tally) / base) * 100).toFixed(2)} % (target < 1 %)`,
);
const hot = (median(fixThrice) - median(fixAlone)) / 2;
const perRow = (ms: number) => ((ms / rows.length) * 1e6).toFixed(0);
console.log(
  `fixes: ${perRow(hot)} ns a row in the worker (${perRow(median(fixAlone))} ns reading the row from memory), ` +
    `tally ${perRow(median(fixTally))} ns an event; both ${(((hot + median(fixTally)) / base) * 100).toFixed(2)} % ` +
    `of the per-row work (${(((median(fixAlone) + median(fixTally)) / base) * 100).toFixed(2)} % cold; target < 1 %)`,
);
