import { RecordParser } from './record-parser.ts';
import { createAutoDecoder } from './decoder.ts';
import { binaryKind, bomEncoding, detectDelimiter, looksBinary } from './sniff.ts';
import type { CsvHeaderInfo, CsvIssue, CsvItem, CsvOptions } from './types.ts';

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
export function cleanHeaders(raw: string[]): { headers: string[]; issues: CsvIssue[] } {
  const issues: CsvIssue[] = [];
  const seen = new Map<string, number>();
  const headers = raw.map((h, i) => {
    let name = h.replace(NUL, '').trim();
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
  return { headers, issues };
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
  let switchReported = false;
  let bomEncoded = false;
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
    if (!bom && looksBinary(bytes.subarray(0, SNIFF_BYTES))) {
      out.push(fatal('NOT_TEXT', MESSAGES.NOT_TEXT));
      return null;
    }
    decoder = createAutoDecoder(bom?.encoding);
    bomEncoded = bom !== null;
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
    const records = parser.feed(text, final);
    for (const rec of records) {
      if (done) return;
      onRecord(rec, out);
    }
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
    if (
      header &&
      !switchReported &&
      header.encoding !== 'windows-1252' &&
      decoder!.encoding === 'windows-1252'
    ) {
      switchReported = true;
      out.push({
        kind: 'issue',
        issue: {
          rowNumber: null,
          code: 'WINDOWS_1252',
          message:
            'The file is not UTF-8, so its accented characters were read as Windows-1252 (Excel on Windows). Check that names with accents look right.',
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
    if (!header) {
      if (rec.length === 1 && rec[0]!.trim() === '') {
        recordNo--; // blank lines before the header do not count
        return;
      }
      const cleaned = cleanHeaders(rec);
      // An all-ASCII header reads the same in every encoding: call it UTF-8 whatever the decoder has seen
      // beyond it, so the header (and the WINDOWS_1252 issue below) never depend on how bytes were chunked.
      const encoding =
        !bomEncoded && rec.every((h) => /^[\t\x20-\x7e]*$/.test(h))
          ? 'utf-8'
          : (decoder!.encoding ?? 'utf-8');
      header = {
        headers: cleaned.headers,
        originalHeaders: rec,
        encoding,
        delimiter: parser!.delimiter,
        issues: cleaned.issues,
      };
      out.push({ kind: 'header', info: header });
      return;
    }
    if (rec.every(isBlank)) return;
    const width = header.headers.length;
    let values = rec;
    if (rec.length !== width) {
      const extra = rec.slice(width).filter((c) => c.trim() !== '').length;
      if (rec.length < width || extra > 0) {
        out.push({
          kind: 'issue',
          issue: {
            rowNumber: recordNo,
            code: 'RAGGED_ROW',
            message: `Row ${recordNo} has ${rec.length} cells but the header has ${width}; ${rec.length < width ? 'missing cells were left empty' : 'extra cells were ignored'}.`,
          },
        });
      }
      values =
        rec.length < width ? rec.concat(Array<string>(width - rec.length).fill('')) : rec.slice(0, width);
    }
    for (let c = 0; c < values.length; c++) {
      const v = values[c]!;
      if (v.length > maxCell) {
        values[c] = v.slice(0, maxCell);
        out.push({
          kind: 'issue',
          issue: {
            rowNumber: recordNo,
            code: 'CELL_TOO_LONG',
            message: `Row ${recordNo}, column "${header.headers[c]}" is longer than ${maxCell} characters and was cut.`,
          },
        });
      }
      if (sawNul && v.includes('\u0000')) {
        values[c] = values[c]!.replace(NUL, '');
        out.push({
          kind: 'issue',
          issue: {
            rowNumber: recordNo,
            code: 'NUL_BYTES',
            message: `Row ${recordNo}, column "${header.headers[c]}" contained NUL characters; they were removed.`,
          },
        });
      }
    }
    rows++;
    out.push({ kind: 'row', rowNumber: recordNo, values });
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
      done = true;
      if (!sawText || !header) out.push(fatal('EMPTY', MESSAGES.EMPTY));
      else if (rows === 0) out.push(fatal('HEADER_ONLY', MESSAGES.HEADER_ONLY));
      return out;
    },
  };
}

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
