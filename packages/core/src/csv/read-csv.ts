import { RecordParser } from './record-parser.ts';
import { createAutoDecoder } from './decoder.ts';
import { fileNotices, filledCells, isTitleLine, MAX_TITLE_LINES, type ReadCounts } from './notices.ts';
import { binaryKind, bomEncoding, detectDelimiter, looksBinary, utf16WithoutBom } from './sniff.ts';
import type { CsvEncoding, CsvHeaderInfo, CsvIssue, CsvItem, CsvOptions } from './types.ts';

const SNIFF_BYTES = 64 * 1024;
// eslint-disable-next-line no-control-regex -- NUL is exactly what PostgreSQL refuses and we remove
const NUL = /\u0000/g;

const fatal = (code: Extract<CsvItem, { kind: 'fatal' }>['code'], message: string): CsvItem => ({
  kind: 'fatal',
  code,
  message,
});

const MESSAGES = {
  EMPTY:
    'The file is empty. Export your data again and make sure it has a header row and at least one row of data.',
  HEADER_ONLY:
    'The file has a header row but no data rows. Add at least one row of conversions and upload it again.',
  NOT_TEXT:
    "This file doesn't look like a CSV: it contains binary data. Export your data as CSV (comma-separated values) and upload that file.",
};

/** Unique, trimmed, non-blank header names, with issues for the ones that had to change. */
export function cleanHeaders(raw: string[]): { headers: string[]; issues: CsvIssue[]; trimmed: number } {
  const issues: CsvIssue[] = [];
  const seen = new Map<string, number>();
  let trimmed = 0;
  const headers = raw.map((h, i) => {
    const unNul = h.replace(NUL, '');
    let name = unNul.trim();
    if (name && name !== unNul) trimmed++;
    if (!name) {
      name = `column_${i + 1}`;
      issues.push({
        rowNumber: 1,
        code: 'BLANK_HEADER',
        message: `Column ${i + 1} has no name; it is called "${name}".`,
      });
    }
    const base = name;
    let n = seen.get(base.toLowerCase()) ?? 0;
    while (n > 0 && seen.has(name.toLowerCase())) name = `${base}_${++n}`;
    if (name !== base) {
      issues.push({
        rowNumber: 1,
        code: 'DUPLICATE_HEADER',
        message: `Column "${base}" appears more than once; the copy in column ${i + 1} is called "${name}".`,
      });
    }
    seen.set(base.toLowerCase(), Math.max(n, 1));
    seen.set(name.toLowerCase(), 1);
    return name;
  });
  return { headers, issues, trimmed };
}

/**
 * Synchronous, incremental CSV reader: push byte chunks, get header, rows, issues and fatal problems back as
 * data. Detects the encoding (BOM, else UTF-8 or Windows-1252, settled at the first non-ASCII byte) and the
 * delimiter (or an Excel `sep=` line).
 */
export function createCsvReader(options: CsvOptions = {}) {
  const maxCell = options.maxCellChars ?? 10_000;
  const maxLine = options.maxLineChars ?? 1_000_000;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let decoder: ReturnType<typeof createAutoDecoder> | null = null;
  let parser: RecordParser | null = null;
  let header: CsvHeaderInfo | null = null;
  let recordNo = 0;
  let rows = 0;
  let done = false;
  let replacedReported = false;
  let replacedPending = false;
  let bomEncoded = false;
  /** How the bytes were read when not plain UTF-8: the ENCODING_CONVERTED notice. */
  let bytesEncoding: CsvEncoding | null = null;
  /** Records before the header is settled (a title line is known only from the line after it). */
  let preHeader: { rec: string[]; no: number }[] = [];
  const counts: ReadCounts = {
    convertedRows: 0,
    blankLines: 0,
    titles: [],
    longCells: [],
    windows1252Only: false,
  };
  let sawText = false;
  // Until some text holds a NUL no cell can, so the per-cell search is skipped. It stays set: a record
  // buffered across chunks may carry a NUL from an earlier one.
  let sawNul = false;

  function start(bytes: Uint8Array, out: CsvItem[]): Uint8Array | null {
    const kind = binaryKind(bytes);
    if (kind) {
      out.push(
        fatal(
          'BINARY',
          `This looks like ${kind}, not a CSV file. Save or export your data as CSV (comma-separated values) and upload that file.`,
        ),
      );
      return null;
    }
    const bom = bomEncoding(bytes);
    const wide = bom ? null : utf16WithoutBom(bytes);
    if (!bom && !wide && looksBinary(bytes.subarray(0, SNIFF_BYTES))) {
      out.push(fatal('NOT_TEXT', MESSAGES.NOT_TEXT));
      return null;
    }
    decoder = createAutoDecoder(bom?.encoding ?? wide ?? undefined);
    bomEncoded = bom !== null || wide !== null;
    counts.bom = bom !== null;
    return bom ? bytes.subarray(bom.skip) : bytes;
  }

  function onText(text: string, final: boolean, out: CsvItem[]) {
    if (!parser) {
      if (!text && !final) return;
      let body = text.replace(/^\uFEFF/, '');
      let delimiter: string;
      const sep = /^sep=(.)\r?\n?/i.exec(body);
      if (sep) {
        delimiter = sep[1]!;
        counts.sepLine = delimiter;
        body = body.slice(sep[0].length);
      } else delimiter = detectDelimiter(body.slice(0, 64 * 1024));
      parser = new RecordParser(delimiter);
      text = body;
    }
    if (!replacedReported && decoder!.encoding === 'utf-8' && text.includes('\uFFFD')) {
      replacedReported = true;
      replacedPending = true;
    }
    if (!sawText && /\S/.test(text)) sawText = true;
    if (!sawNul && text.includes('\u0000')) sawNul = true;
    if (decoder!.encoding !== null && decoder!.encoding !== 'utf-8') {
      bytesEncoding = decoder!.encoding;
      // Characters only Windows-1252 has (€, ’, “ …, bytes 0x80–0x9F): otherwise it reads as Latin-1 too.
      if (!counts.windows1252Only && bytesEncoding === 'windows-1252' && WINDOWS_1252_ONLY.test(text))
        counts.windows1252Only = true;
    }
    const records = parser.feed(text, final);
    for (const rec of records) {
      if (done) return;
      onRecord(rec, out);
    }
    if (final && !header && !done) settleHeader(out, true);
    // Encoding news is told after the header, which readCsv promises first.
    if (header && replacedPending) {
      replacedPending = false;
      out.push({
        kind: 'issue',
        issue: {
          rowNumber: null,
          code: 'INVALID_CHARACTERS',
          message:
            'Some characters could not be read and were replaced with "�". Save the file as UTF-8 to keep them.',
        },
      });
    }
    if (parser.pending > maxLine) {
      done = true;
      out.push(
        fatal(
          'TOO_LONG',
          `Row ${recordNo + 1} is longer than ${maxLine.toLocaleString('en-US')} characters. The file probably has a quote (") that is never closed.`,
        ),
      );
    }
    if (final && parser.unterminatedQuote) {
      out.push({
        kind: 'issue',
        issue: {
          rowNumber: recordNo,
          code: 'UNTERMINATED_QUOTE',
          message: `Row ${recordNo} has a quote (") that is never closed; the rest of the file was read as one cell.`,
        },
      });
    }
  }

  function onRecord(rec: string[], out: CsvItem[]) {
    recordNo++;
    if (header) return dataRow(rec, recordNo, out);
    if (rec.every(isBlank)) {
      if (!preHeader.length) recordNo--; // blank lines before the first line do not count
      counts.blankLines++;
      return;
    }
    preHeader.push({ rec, no: recordNo });
    settleHeader(out, false);
  }

  /**
   * Takes the header from the records read so far: title or notes lines above it ("Report generated …") are
   * skipped, each judged by the record after it, so the header waits for one more record (or the end).
   */
  function settleHeader(out: CsvItem[], final: boolean) {
    while (preHeader.length && counts.titles.length < MAX_TITLE_LINES) {
      // A title is judged against the header below it: the next record of two or more filled cells.
      const below = preHeader.find((r, i) => i > 0 && filledCells(r.rec) >= 2);
      if (!below) {
        if (final || preHeader.length > MAX_TITLE_LINES) break;
        return;
      }
      if (!isTitleLine(preHeader[0]!.rec, below.rec)) break;
      // As written, less a spreadsheet's padding: "Report generated …, all stores".
      const title = preHeader.shift()!.rec;
      counts.titles.push(
        title
          .map((c) => c.trim())
          .filter(Boolean)
          .join(', '),
      );
    }
    if (!preHeader.length || (preHeader.length < 2 && !final)) return;
    const [first, ...rest] = preHeader;
    preHeader = [];
    setHeader(first!.rec, out);
    for (const r of rest) dataRow(r.rec, r.no, out);
  }

  function setHeader(rec: string[], out: CsvItem[]) {
    const cleaned = cleanHeaders(rec);
    // An all-ASCII header reads the same in every encoding: call it UTF-8 whatever the decoder has seen
    // beyond it, so the header never depends on how bytes were chunked.
    const ascii = rec.every((h) => /^[\t\x20-\x7e]*$/.test(h));
    const encoding = !bomEncoded && ascii ? 'utf-8' : (decoder!.encoding ?? 'utf-8');
    header = {
      headers: cleaned.headers,
      originalHeaders: rec,
      encoding,
      delimiter: parser!.delimiter,
      issues: cleaned.issues,
      trimmedHeaders: cleaned.trimmed,
    };
    if (bytesEncoding !== null && (!ascii || isWide())) counts.convertedRows++;
    out.push({ kind: 'header', info: header });
  }

  /** UTF-16: every character was converted, ASCII or not. */
  const isWide = () => decoder!.encoding === 'utf-16le' || decoder!.encoding === 'utf-16be';

  function dataRow(rec: string[], rowNumber: number, out: CsvItem[]) {
    const h = header!;
    if (rec.every(isBlank)) {
      counts.blankLines++;
      return;
    }
    const width = h.headers.length;
    let values = rec;
    if (rec.length !== width) {
      const extra = rec.slice(width).filter((c) => c.trim() !== '').length;
      if (rec.length < width || extra > 0) {
        out.push({
          kind: 'issue',
          issue: {
            rowNumber,
            code: 'RAGGED_ROW',
            message: `Row ${rowNumber} has ${rec.length} cells but the header has ${width}; ${rec.length < width ? 'missing cells were left empty' : 'extra cells were ignored'}.`,
          },
        });
      }
      values =
        rec.length < width ? rec.concat(Array<string>(width - rec.length).fill('')) : rec.slice(0, width);
    }
    // Only a file that was not UTF-8 pays for this count.
    if (bytesEncoding !== null && (isWide() || values.some(hasNonAscii))) counts.convertedRows++;
    for (let c = 0; c < values.length; c++) {
      const v = values[c]!;
      // Never cut: a mapped cell past its field's limit is a row error (fields/limits.ts), any other one is
      // counted for a notice.
      if (v.length > maxCell) counts.longCells[c] = (counts.longCells[c] ?? 0) + 1;
      if (sawNul && v.includes('\u0000')) {
        values[c] = v.replace(NUL, '');
        out.push({
          kind: 'issue',
          issue: {
            rowNumber,
            code: 'NUL_BYTES',
            message: `Row ${rowNumber}, column "${h.headers[c]}" contained NUL characters; they were removed.`,
          },
        });
      }
    }
    rows++;
    out.push({ kind: 'row', rowNumber, values });
  }

  return {
    /** Feeds the next chunk of bytes; answers what became complete. */
    push(chunk: Uint8Array): CsvItem[] {
      const out: CsvItem[] = [];
      if (done || chunk.length === 0) return out;
      if (!decoder) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes < SNIFF_BYTES) return out;
        const all = concat(pending, pendingBytes);
        pending = [];
        const body = start(all, out);
        if (!body) {
          done = true;
          return out;
        }
        onText(decoder!.decode(body, false), false, out);
        return out;
      }
      onText(decoder.decode(chunk, false), false, out);
      return out;
    },
    /** Ends the input: flushes the last record and reports empty or header-only files. */
    end(): CsvItem[] {
      const out: CsvItem[] = [];
      if (done) return out;
      if (!decoder) {
        const all = concat(pending, pendingBytes);
        pending = [];
        if (all.length === 0) {
          done = true;
          return [fatal('EMPTY', MESSAGES.EMPTY)];
        }
        const body = start(all, out);
        if (!body) {
          done = true;
          return out;
        }
        onText(decoder!.decode(body, false), false, out);
      }
      if (!done) onText(decoder!.decode(new Uint8Array(0), true), true, out);
      if (!sawText || !header) out.push(fatal('EMPTY', MESSAGES.EMPTY));
      else if (rows === 0) out.push(fatal('HEADER_ONLY', MESSAGES.HEADER_ONLY));
      else if (!done)
        for (const notice of fileNotices(counts, parser!, bytesEncoding, header.headers, maxCell))
          out.push({ kind: 'notice', notice });
      done = true;
      return out;
    },
  };
}

// eslint-disable-next-line no-control-regex -- any character past ASCII
const NON_ASCII = /[^\u0000-\u007f]/;
const hasNonAscii = (v: string) => NON_ASCII.test(v);
/** What Windows-1252 reads bytes 0x80–0x9F as: Latin-1 has only invisible control characters there. */
const WINDOWS_1252_ONLY =
  /[\u20ac\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u017d\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u017e\u0178]/;

/** `v.trim() === ''`, without trimming the usual cell that starts with a visible ASCII character. */
function isBlank(v: string): boolean {
  const c = v.charCodeAt(0);
  return !(c > 32 && c < 127) && v.trim() === '';
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * Streams a CSV from any byte source without holding the whole file: yields the header first, then rows,
 * issues as they are found, and a fatal item (then stops) for files that cannot be read as CSV.
 */
export async function* readCsv(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options?: CsvOptions,
): AsyncGenerator<CsvItem> {
  const reader = createCsvReader(options);
  for await (const chunk of source) {
    for (const item of reader.push(chunk)) {
      yield item;
      if (item.kind === 'fatal') return;
    }
  }
  yield* reader.end();
}
