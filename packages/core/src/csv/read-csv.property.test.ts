import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createCsvReader } from './read-csv.ts';
import { createCsvReader as createReferenceReader } from './read-csv.reference.ts';
import type { CsvItem, CsvOptions } from './types.ts';

const enc = new TextEncoder();

// CSV-like text: plain and blank cells (trim() whitespace beyond ASCII too), quotes, every line ending,
// NUL, accents and emoji; sometimes an Excel sep= line or a BOM in front.
const token = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('a', 'b', 'x', '1', 'é', '😀') },
  { weight: 6, arbitrary: fc.constantFrom(' ', '\t', '\u00a0', '\u3000', '\ufeff', '\v') },
  { weight: 4, arbitrary: fc.constantFrom(',', ';', '|') },
  { weight: 3, arbitrary: fc.constantFrom('\n', '\r\n', '\r') },
  { weight: 1, arbitrary: fc.constantFrom('"', '""', '\u0000', '\uFFFD') },
);
const prefix = fc.constantFrom('', '', '', 'sep=;\n', 'sep=\u0000\r\n', '\ufeff');
const text = fc.tuple(prefix, fc.array(token, { maxLength: 200 })).map(([p, t]) => p + t.join(''));
// The reader sniffs the first 64 KB whole and reads only what follows chunk by chunk. A blank line of
// spaces just short of that (skipped before the header) puts the text after it there at the cost of one record.
const padded = fc
  .tuple(fc.integer({ min: 64 * 1024 - 600, max: 64 * 1024 - 2 }), text)
  .map(([n, s]) => `${' '.repeat(n)}\r\n${s}`);
/** UTF-8, or bytes that are not (a lone Windows-1252 é) somewhere. */
const bytes = fc.tuple(fc.oneof(text, padded), fc.option(fc.nat(), { nil: undefined })).map(([s, at]) => {
  const b = enc.encode(s);
  if (at === undefined) return b;
  const k = at % (b.length + 1);
  const out = new Uint8Array(b.length + 1);
  out.set(b.subarray(0, k));
  out[k] = 0xe9;
  out.set(b.subarray(k), k + 1);
  return out;
});
const options = fc.record(
  { maxCellChars: fc.integer({ min: 1, max: 8 }), maxLineChars: fc.integer({ min: 1, max: 60 }) },
  { requiredKeys: [] },
);

function read(
  create: (o?: CsvOptions) => ReturnType<typeof createCsvReader>,
  b: Uint8Array,
  cuts: number[],
  o: CsvOptions,
) {
  const at = [...new Set(cuts.map((c) => c % (b.length + 1)))].sort((x, y) => x - y);
  const reader = create(o);
  const items: CsvItem[][] = [];
  let from = 0;
  for (const c of [...at, b.length]) {
    items.push(reader.push(b.subarray(from, c)));
    from = c;
  }
  items.push(reader.end());
  return items;
}

describe('createCsvReader', () => {
  it('gives what the pre-optimisation reader gives, chunk by chunk, for any bytes and chunking', () => {
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 8 }), options, (b, cuts, o) => {
        expect(read(createCsvReader, b, cuts, o)).toEqual(read(createReferenceReader, b, cuts, o));
      }),
      { numRuns: 600 },
    );
  }, 60_000);
});
