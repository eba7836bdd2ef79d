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
 * BENCH_ROWS sets the size.
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

/** One pass over the file: validate and write every row, keeping the codes (and the validated rows if asked). */
async function pass(
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
    codes[n++] = write(r).match;
    keep?.push(r.effectiveRow);
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

const ROUNDS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// Only the effective rows are kept: whole results for a million rows made the collector the bench's subject.
const rows: Record<string, string>[] = [];
const { codes } = await pass(rows); // warm-up: JIT and the file in the page cache; keeps the validated rows
/** Times fn over every validated row; its results are folded so the loop is not optimised away. */
function overRows(fn: (eff: Record<string, string>) => number): number {
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
const tally: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  full.push((await pass()).ms);
  const write = createEventWriter();
  writeAlone.push(overRows((effectiveRow) => write({ effectiveRow }).match));
  codeAlone.push(overRows(matchCode));
  tally.push(tallyMs(codes));
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
  `a per-row matchCode call + tally would be ${(((median(codeAlone) + median(tally)) / base) * 100).toFixed(2)} % ` +
    `of the per-row work; tally alone ${((median(tally) / base) * 100).toFixed(2)} % (target < 1 %)`,
);
