const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * Incremental RFC 4180 record splitter over decoded text: quoted fields with delimiters, doubled quotes and
 * line breaks; CRLF, LF and CR endings. Lenient where files are sloppy (text after a closing quote is kept).
 * A record that is not complete yet stays buffered until more text or the end arrives.
 */
export class RecordParser {
  private buf = '';
  /** Set when the final record ran to the end of the file inside quotes. */
  unterminatedQuote = false;
  /** Records ended by LF, CRLF and a lone CR (line breaks inside quoted cells are data, not counted). */
  lfEnds = 0;
  crlfEnds = 0;
  crEnds = 0;

  /**
   * @param lineFastPath false reads every record with the general loop, the parser as it was before the fast
   *   path: the property test holds the two to the same output.
   */
  constructor(
    readonly delimiter: string,
    private readonly lineFastPath = true,
  ) {}

  /** Characters buffered for an incomplete record (to stop runaway unclosed quotes). */
  get pending(): number {
    return this.buf.length;
  }

  /**
   * The general loop: reads the record at i into out and answers where the next one starts, or -1 when the
   * record is not complete yet (out unchanged).
   */
  private record(s: string, i: number, final: boolean, out: string[][]): number {
    const n = s.length;
    const D = this.delimiter.charCodeAt(0);
    const rec: string[] = [];
    let j = i;
    for (;;) {
      let field: string;
      let c = j < n ? s.charCodeAt(j) : -1;
      if (c === QUOTE) {
        let k = j + 1;
        let acc = '';
        for (;;) {
          const q = s.indexOf('"', k);
          if (q === -1) {
            if (!final) return -1;
            acc += s.slice(k);
            j = n;
            this.unterminatedQuote = true;
            break;
          }
          if (q + 1 >= n && !final) return -1; // cannot tell a closing quote from an escaped one yet
          if (s.charCodeAt(q + 1) === QUOTE) {
            acc += s.slice(k, q + 1);
            k = q + 2;
            continue;
          }
          acc += s.slice(k, q);
          j = q + 1;
          break;
        }
        let e = j;
        while (e < n && (c = s.charCodeAt(e)) !== D && c !== LF && c !== CR) e++;
        if (e >= n && !final) return -1;
        field = e > j ? acc + s.slice(j, e) : acc;
        j = e;
      } else {
        let e = j;
        while (e < n && (c = s.charCodeAt(e)) !== D && c !== LF && c !== CR) e++;
        if (e >= n && !final) return -1;
        field = s.slice(j, e);
        j = e;
      }
      rec.push(field);
      if (j >= n) {
        out.push(rec);
        return n;
      }
      c = s.charCodeAt(j);
      if (c === D) {
        j++;
        if (j >= n) {
          if (!final) return -1;
          rec.push('');
          out.push(rec);
          return n;
        }
        continue;
      }
      if (c === CR) {
        if (j + 1 >= n && !final) return -1;
        if (s.charCodeAt(j + 1) === LF) {
          this.crlfEnds++;
          j += 2;
        } else {
          this.crEnds++;
          j += 1;
        }
      } else {
        this.lfEnds++;
        j += 1;
      }
      out.push(rec);
      return j;
    }
  }

  feed(text: string, final: boolean): string[][] {
    // join() copies into one flat string; `+` would make a rope that every charCodeAt and indexOf below
    // has to look through.
    const s = this.buf.length ? [this.buf, text].join('') : text;
    const n = s.length;
    const delimiter = this.delimiter;
    const D = delimiter.charCodeAt(0);
    const out: string[][] = [];
    // Next LF, CR, quote and delimiter at or after i (n when there is none), searched again only once i
    // passes them: a file without CRs or quotes is scanned for them once per feed, not once per record.
    let lf = -1;
    let cr = -1;
    let q = -1;
    let d = -1;
    let i = 0;
    const fast = this.lineFastPath;
    // The general loop is a method of its own (record): feed runs once per chunk, and while it held that loop
    // too, V8 ran much of it in baseline code (after a deopt it reached the loop only through on-stack
    // replacement). Now feed is small enough to be optimised as a whole.
    outer: while (i < n) {
      if (fast) {
        // Fast path: a record's fields are cut with indexOf, not read character by character. A run of
        // fields without a quote before its line end (q === end only when neither exists) is split at the
        // delimiter; a quoted field that opens a field is read to its closing quote. Anything else (a quote
        // inside a field, text after a closing quote, a record that reaches the end of the text) is left to
        // the general loop below, from the record's start.
        const rec: string[] = [];
        let from = i;
        let next = -1;
        for (;;) {
          if (lf < from) lf = indexOr(s, '\n', from, n);
          if (cr < from) cr = indexOr(s, '\r', from, n);
          if (q < from) q = indexOr(s, '"', from, n);
          if (d < from) d = indexOr(s, delimiter, from, n);
          const end = lf < cr ? lf : cr;
          if (q >= end) {
            // Incomplete until its line end arrives; a CR last in the buffer may be half of a CRLF.
            if (!final && (end === n || (end === cr && end + 1 === n))) break outer;
            d = splitLine(s, from, end, d, delimiter, rec);
            if (end === n) next = n + 1;
            else if (end === lf) {
              this.lfEnds++;
              next = end + 1;
            } else if (s.charCodeAt(end + 1) === LF) {
              this.crlfEnds++;
              next = end + 2;
            } else {
              this.crEnds++;
              next = end + 1;
            }
            break;
          }
          if (D === QUOTE || (q > from && s.charCodeAt(q - 1) !== D)) break;
          if (q > from) d = splitLine(s, from, q - 1, d, delimiter, rec);
          const j = readQuoted(s, q, rec);
          if (j < 0) break;
          const c = s.charCodeAt(j);
          if (c === D) {
            from = j + 1;
            continue;
          }
          if (c === LF) {
            this.lfEnds++;
            next = j + 1;
          } else if (c === CR && j + 1 < n) {
            if (s.charCodeAt(j + 1) === LF) {
              this.crlfEnds++;
              next = j + 2;
            } else {
              this.crEnds++;
              next = j + 1;
            }
          }
          break;
        }
        if (next >= 0) {
          out[out.length] = rec;
          i = next;
          continue;
        }
      }
      const next = this.record(s, i, final, out);
      if (next < 0) break;
      i = next;
    }
    this.buf = i < n ? s.slice(i) : '';
    return out;
  }
}

// Cells and records are added by index stores, not push(): TurboFan left those push() calls as calls to the
// builtin, while a store at the array's length is compiled inline (~1,150 fewer instructions a row).
/**
 * Adds the cells of the unquoted line s[from, end) to rec; d is the first delimiter at or after from (end or
 * beyond when there is none before end). Answers the first delimiter at or after end, for the next line.
 */
function splitLine(
  s: string,
  from: number,
  end: number,
  d: number,
  delimiter: string,
  rec: string[],
): number {
  const n = s.length;
  while (d < end) {
    rec[rec.length] = s.slice(from, d);
    from = d + 1;
    d = indexOr(s, delimiter, from, n);
  }
  rec[rec.length] = s.slice(from, end);
  return d;
}

/**
 * Adds the quoted field that opens at s[q] to rec and answers the index after its closing quote; -1 when
 * that quote is not followed by another character in s (the general loop decides what the text's end means).
 */
function readQuoted(s: string, q: number, rec: string[]): number {
  const n = s.length;
  let k = q + 1;
  let acc = '';
  for (;;) {
    const c = s.indexOf('"', k);
    if (c === -1 || c + 1 >= n) return -1;
    if (s.charCodeAt(c + 1) === QUOTE) {
      acc += s.slice(k, c + 1);
      k = c + 2;
      continue;
    }
    rec[rec.length] = acc + s.slice(k, c);
    return c + 1;
  }
}

function indexOr(s: string, ch: string, from: number, none: number): number {
  const k = s.indexOf(ch, from);
  return k === -1 ? none : k;
}
