import type { CsvEncoding, FileNotice } from './types.ts';

/** What the reader counts while it repairs a file, for the notices told at its end. */
export interface ReadCounts {
  /** Header and rows holding a character that was converted (every one for UTF-16). */
  convertedRows: number;
  /** Set when the bytes held a BOM. */
  bom?: boolean;
  /** Windows-1252's own characters were seen (else the file reads as Latin-1 as well). */
  windows1252Only: boolean;
  /** Blank lines (and rows of empty cells) dropped, before the header or after. */
  blankLines: number;
  /** The title or notes lines skipped above the header row, as written. */
  titles: string[];
  /** Column index → cells longer than the reader's cell limit. */
  longCells: number[];
  /** The separator an Excel `sep=` first line named. */
  sepLine?: string;
}

/** Amounts validation read by a convention the marketer should know of (decision 0097), each with an example. */
export interface AmountReadings {
  decimalComma: number;
  decimalCommaExample?: { written: string; read: string };
  thousands: number;
  thousandsExample?: { written: string; read: string; separator: string };
}

/** At most this many title or notes lines are looked past above the header row. */
export const MAX_TITLE_LINES = 5;

/** Cells with something other than whitespace. */
export const filledCells = (rec: readonly string[]) => {
  let n = 0;
  for (const c of rec) if (c.trim() !== '') n++;
  return n;
};
/** Words, as a title or a note is written ("Report generated 2026-11-20", "Exported from HubSpot"). */
const SENTENCE = /\p{L}.*\s.*\S|\S.*\s.*\p{L}/u;

/**
 * Whether `rec` is a title or notes line above the header row `next`: one filled cell, the first, written as
 * words, above a row of two or more names; or a few such cells on a shorter line than the header's. A header
 * with one named column ("email,,") is no title: its name is one word.
 */
export function isTitleLine(rec: readonly string[], next: readonly string[]): boolean {
  const first = rec[0]?.trim() ?? '';
  if (!first || !SENTENCE.test(first)) return false;
  const names = filledCells(next);
  if (names < 2) return false;
  const n = filledCells(rec);
  if (n === 1) return true;
  return rec.length < next.length && n * 2 < names;
}

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const ENCODING_NAMES: Record<Exclude<CsvEncoding, 'utf-8'>, string> = {
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
  'windows-1252': 'Windows-1252',
};
const quote = (s: string) => `"${s.length > 80 ? `${s.slice(0, 79)}…` : s}"`;

/** The repairs the reader made to the file, each once with its count. */
export function fileNotices(
  counts: ReadCounts,
  endings: { lfEnds: number; crlfEnds: number; crEnds: number },
  encoding: CsvEncoding | null,
  headers: readonly string[],
  maxCell = 10_000,
): FileNotice[] {
  const out: FileNotice[] = [];
  if (counts.sepLine !== undefined) {
    const sep = counts.sepLine === '\t' ? 'a tab' : `"${counts.sepLine}"`;
    out.push({
      code: 'SEPARATOR_LINE',
      count: 1,
      message: `Separator line: the first line, "sep=${counts.sepLine}", is Excel's note of the column separator. Columns were split at ${sep}, and the line was not read as a row.`,
    });
  }
  if (encoding && encoding !== 'utf-8') {
    const name =
      encoding === 'windows-1252' && !counts.windows1252Only
        ? 'Latin-1 (ISO-8859-1)'
        : ENCODING_NAMES[encoding];
    const wide = encoding !== 'windows-1252';
    out.push({
      code: 'ENCODING_CONVERTED',
      count: counts.convertedRows,
      message: `Encoding: the file is ${name}${wide ? (counts.bom ? ' with a byte-order mark' : ' without a byte-order mark') : ''}, not UTF-8; it was converted (${plural(counts.convertedRows, 'row')}${wide ? '' : ' with accented or other special characters'}). Check that names with accents look right.`,
    });
  }
  const { lfEnds, crlfEnds, crEnds } = endings;
  if (crEnds > 0 && lfEnds + crlfEnds === 0) {
    out.push({
      code: 'LINE_ENDINGS',
      count: crEnds,
      message: `Line endings: ${plural(crEnds, 'line')} ended with a lone carriage return (old Mac style); read as ordinary line breaks.`,
    });
  } else if ([lfEnds, crlfEnds, crEnds].filter((n) => n > 0).length > 1) {
    // The lines unlike the file's usual ending.
    const odd = lfEnds + crlfEnds + crEnds - Math.max(lfEnds, crlfEnds, crEnds);
    out.push({
      code: 'LINE_ENDINGS',
      count: odd,
      message: `Line endings: the file mixes Windows (CRLF), Unix (LF)${crEnds ? ' and old Mac (CR)' : ''} line endings; ${plural(odd, 'line')} unlike the rest ${odd === 1 ? 'was' : 'were'} read as ordinary line breaks.`,
    });
  }
  if (counts.blankLines > 0) {
    out.push({
      code: 'BLANK_LINES',
      count: counts.blankLines,
      message: `Blank lines: ${plural(counts.blankLines, 'empty line')} (or rows of empty cells) ${counts.blankLines === 1 ? 'was' : 'were'} dropped.`,
    });
  }
  if (counts.titles.length) {
    const n = counts.titles.length;
    out.push({
      code: 'TITLE_SKIPPED',
      count: n,
      message: `Title lines: ${plural(n, 'line')} above the header row ${n === 1 ? 'was' : 'were'} skipped as a title or notes, not taken as column names: ${counts.titles.map(quote).join(', ')}.`,
    });
  }
  counts.longCells.forEach((n, c) => {
    if (!n) return;
    out.push({
      code: 'LONG_CELLS',
      count: n,
      column: headers[c],
      message: `Long cells: column "${headers[c]}" has ${plural(n, 'cell')} longer than ${maxCell.toLocaleString('en-US')} characters. It is not sent, and nothing was cut.`,
    });
  });
  return out;
}

/**
 * WHITESPACE_TRIMMED, named once for the header names the reader trimmed and the mapped cells validation
 * trimmed; null when there were none.
 */
export function whitespaceNotice(headers: number, cells: number): FileNotice | null {
  if (!headers && !cells) return null;
  const parts = [
    ...(headers ? [plural(headers, 'column name')] : []),
    ...(cells ? [plural(cells, 'cell')] : []),
  ];
  return {
    code: 'WHITESPACE_TRIMMED',
    count: headers + cells,
    message: `Whitespace: spaces around ${parts.join(' and ')} were trimmed.`,
  };
}

const SEPARATOR_NAMES: Record<string, string> = {
  '.': '"." between thousands',
  ' ': 'a space between thousands',
  '\u00a0': 'a space between thousands',
  '\u202f': 'a space between thousands',
  "'": 'an apostrophe between thousands',
};

/** AMOUNT_DECIMAL_COMMA and AMOUNT_THOUSANDS: how amounts written another way than 1234.50 were read. */
export function amountNotices(r: AmountReadings | undefined): FileNotice[] {
  const out: FileNotice[] = [];
  if (!r) return out;
  const more = (n: number) => (n > 1 ? ` (${plural(n, 'amount')} in all)` : '');
  if (r.decimalComma && r.decimalCommaExample) {
    const { written, read } = r.decimalCommaExample;
    out.push({
      code: 'AMOUNT_DECIMAL_COMMA',
      count: r.decimalComma,
      message: `Amounts use a decimal comma: "${written}" was read as ${read}${more(r.decimalComma)}.`,
    });
  }
  if (r.thousands && r.thousandsExample) {
    const { written, read, separator } = r.thousandsExample;
    out.push({
      code: 'AMOUNT_THOUSANDS',
      count: r.thousands,
      message: `Amounts use ${SEPARATOR_NAMES[separator] ?? `"${separator}" between thousands`}: "${written}" was read as ${read}${more(r.thousands)}.`,
    });
  }
  return out;
}

/**
 * The notices a validation reports: the reader's, less LONG_CELLS for mapped columns (their rows carry an
 * error instead), with whitespace trimming named once, then how amounts were read.
 */
export function validationNotices(
  reader: readonly FileNotice[],
  mappedColumns: ReadonlySet<string>,
  trimmedHeaders: number,
  trimmedCells: number,
  amounts?: AmountReadings,
): FileNotice[] {
  const out = reader.filter((n) => !(n.code === 'LONG_CELLS' && n.column && mappedColumns.has(n.column)));
  const ws = whitespaceNotice(trimmedHeaders, trimmedCells);
  if (ws)
    out.splice(out.findIndex((n) => n.code === 'TITLE_SKIPPED' || n.code === 'LONG_CELLS') >>> 0, 0, ws);
  out.push(...amountNotices(amounts));
  return out;
}
