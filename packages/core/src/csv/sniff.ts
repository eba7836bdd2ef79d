import type { CsvEncoding } from './types.ts';

const SIGNATURES: { bytes: number[]; what: string }[] = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'an Excel workbook or a zip archive' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: 'an old Excel (.xls) workbook' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
  { bytes: [0x1f, 0x8b], what: 'a gzip archive' },
];

/** Names a known binary format from the first bytes, or null. */
export function binaryKind(head: Uint8Array): string | null {
  for (const s of SIGNATURES) if (s.bytes.every((b, i) => head[i] === b)) return s.what;
  return null;
}

/** Encoding from a byte-order mark, and how many bytes it takes. */
export function bomEncoding(head: Uint8Array): { encoding: CsvEncoding; skip: number } | null {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', skip: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  return null;
}

/**
 * UTF-16 written without a byte-order mark: text of mostly ASCII characters has a zero in every other byte,
 * the high byte of each code unit (odd places for little-endian, even for big-endian). Binary files and
 * single-byte text do not have that rhythm.
 */
export function utf16WithoutBom(head: Uint8Array): CsvEncoding | null {
  const n = Math.min(head.length, 4096) & ~1;
  if (n < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) evenZeros++;
    if (head[i + 1] === 0) oddZeros++;
  }
  const units = n / 2;
  if (oddZeros >= units * 0.6 && evenZeros <= units * 0.05) return 'utf-16le';
  if (evenZeros >= units * 0.6 && oddZeros <= units * 0.05) return 'utf-16be';
  return null;
}

// Below this many bytes a few stray control bytes are too few to call a file binary: one NUL in a
// three-line CSV is a data problem (reported per cell), not a sign of a spreadsheet or an image. Eight or more
// in a short file are: random bytes are ~10% control bytes.
const MIN_BINARY_SAMPLE = 512;
const MIN_BAD_BYTES = 8;

/** Share of NUL and other control bytes: text files have almost none. */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i]!;
    if (b < 9 || (b > 13 && b < 32 && b !== 27)) bad++;
  }
  const share = bad / sample.length;
  return share > 0.3 || (share > 0.05 && (sample.length >= MIN_BINARY_SAMPLE || bad >= MIN_BAD_BYTES));
}

const CANDIDATES = [',', ';', '\t', '|'];

/** Counts a character outside double quotes. */
function countOutsideQuotes(line: string, ch: string): number {
  let n = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (c === ch && !quoted) n++;
  }
  return n;
}

/** Title or notes lines above the header row that the delimiter's choice looks past (see read-csv). */
const TITLE_LINES = 3;

/**
 * Picks the delimiter that splits the header into the most columns and the next lines into the same number.
 * The header may follow a few title or notes lines ("Report generated …"), so each of the first lines is
 * tried as the header. Comma when nothing else fits.
 */
export function detectDelimiter(text: string): string {
  const lines = text
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim() !== '')
    .slice(0, 6 + TITLE_LINES);
  if (!lines.length) return ',';
  let best = ',';
  let bestScore = 0;
  for (const d of CANDIDATES) {
    const all = lines.map((l) => countOutsideQuotes(l, d));
    for (let from = 0; from <= TITLE_LINES && from < all.length; from++) {
      const counts = all.slice(from, from + 6);
      const head = counts[0]!;
      if (head === 0) continue;
      const consistent = counts.slice(1).filter((c) => c === head).length;
      const score = head * 10 + consistent * 100;
      if (score > bestScore) {
        best = d;
        bestScore = score;
      }
    }
  }
  return best;
}
