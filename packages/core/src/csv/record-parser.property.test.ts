import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RecordParser } from './record-parser.ts';

// Plain text dominates so that whole unquoted lines (the fast path) are common, next to quotes, every kind
// of line ending, empty lines and fields, NUL, non-ASCII and a surrogate pair that chunks may cut in half.
const token = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'x', ' ', 'é', '😀', '\u0000') },
  { weight: 4, arbitrary: fc.constantFrom(',', ';', '\t', '|') },
  { weight: 2, arbitrary: fc.constantFrom('\n', '\r\n', '\r') },
  { weight: 1, arbitrary: fc.constantFrom('"', '""') },
);
const text = fc.array(token, { maxLength: 120 }).map((t) => t.join(''));
// Whole quoted fields (with doubled quotes, delimiters and line breaks inside) between plain fields, as
// exported amounts are: the fast path reads these itself, and falls back where a quote is not a field's first
// character, text follows a closing quote, or a record reaches the end of the text.
const quotedToken = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'bc', '$1,200.00', 'é', '') },
  { weight: 4, arbitrary: fc.constantFrom(',', ';') },
  { weight: 3, arbitrary: fc.constantFrom('"x"', '"a,b"', '"q""r"', '""', '"l\nm"', '"c\r\nd"', '"x"y') },
  { weight: 2, arbitrary: fc.constantFrom('\n', '\r\n', '\r') },
  { weight: 1, arbitrary: fc.constantFrom('"', 'z"') },
);
const quotedText = fc.array(quotedToken, { maxLength: 60 }).map((t) => t.join(''));
// The usual delimiters, plus what an Excel `sep=` line can set: a quote, a letter, half a surrogate pair.
const delimiter = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(',', ';', '\t', '|') },
  { weight: 1, arbitrary: fc.constantFrom('"', 'a', '\uD83D') },
);
/** How the input stops: a final last chunk, a final empty feed after it, or not at all (still streaming). */
const ending = fc.constantFrom('final' as const, 'final-empty' as const, 'open' as const);

function chunksOf(s: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const c of at) {
    out.push(s.slice(from, c));
    from = c;
  }
  out.push(s.slice(from));
  return out;
}

type Parser = Pick<RecordParser, 'feed' | 'pending' | 'unterminatedQuote' | 'lfEnds' | 'crlfEnds' | 'crEnds'>;

/** Everything a caller can see after each feed, so the comparison also pins what is emitted when. */
function run(parser: Parser, chunks: string[], end: 'final' | 'final-empty' | 'open') {
  const feeds = chunks.map((c, k) => [c, end === 'final' && k === chunks.length - 1] as const);
  if (end === 'final-empty') feeds.push(['', true]);
  return feeds.map(([c, final]) => ({
    records: parser.feed(c, final),
    pending: parser.pending,
    unterminatedQuote: parser.unterminatedQuote,
    // The line endings counted for the LINE_ENDINGS notice: the fast path counts what the general loop does.
    endings: [parser.lfEnds, parser.crlfEnds, parser.crEnds],
  }));
}

describe('RecordParser', () => {
  it('emits what its general loop alone emits, feed by feed, for any text and chunking', () => {
    fc.assert(
      fc.property(text, delimiter, fc.array(fc.nat(), { maxLength: 8 }), ending, (s, d, cuts, end) => {
        const chunks = chunksOf(s, cuts);
        expect(run(new RecordParser(d), chunks, end)).toEqual(run(new RecordParser(d, false), chunks, end));
      }),
      { numRuns: 3000 },
    );
  });

  it('emits what its general loop alone emits for records with quoted fields', () => {
    fc.assert(
      fc.property(
        quotedText,
        fc.constantFrom(',', ';', '"'),
        fc.array(fc.nat(), { maxLength: 8 }),
        ending,
        (s, d, cuts, end) => {
          const chunks = chunksOf(s, cuts);
          expect(run(new RecordParser(d), chunks, end)).toEqual(run(new RecordParser(d, false), chunks, end));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
