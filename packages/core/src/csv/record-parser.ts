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
    outer: while (i < n) {
      if (fast) {
        if (lf < i) lf = indexOr(s, '\n', i, n);
        if (cr < i) cr = indexOr(s, '\r', i, n);
        if (q < i) q = indexOr(s, '"', i, n);
        if (d < i) d = indexOr(s, delimiter, i, n);
        const end = lf < cr ? lf : cr;
        // Fast path: with no quote before its line end (q === end only when neither exists), a record is its
        // line split at the delimiter. Quoted records take the general loop below.
        if (q >= end) {
          // Incomplete until its line end arrives; a CR last in the buffer may be half of a CRLF.
          if (!final && (end === n || (end === cr && end + 1 === n))) break;
          const rec: string[] = [];
          let from = i;
          while (d < end) {
            rec.push(s.slice(from, d));
            from = d + 1;
            d = indexOr(s, delimiter, from, n);
          }
          rec.push(s.slice(from, end));
          out.push(rec);
          i = end === cr && s.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
          continue;
        }
      }
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
              if (!final) break outer;
              acc += s.slice(k);
              j = n;
              this.unterminatedQuote = true;
              break;
            }
            if (q + 1 >= n && !final) break outer; // cannot tell a closing quote from an escaped one yet
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
          if (e >= n && !final) break outer;
          field = e > j ? acc + s.slice(j, e) : acc;
          j = e;
        } else {
          let e = j;
          while (e < n && (c = s.charCodeAt(e)) !== D && c !== LF && c !== CR) e++;
          if (e >= n && !final) break outer;
          field = s.slice(j, e);
          j = e;
        }
        rec.push(field);
        if (j >= n) {
          out.push(rec);
          i = n;
          break;
        }
        c = s.charCodeAt(j);
        if (c === D) {
          j++;
          if (j >= n) {
            if (!final) break outer;
            rec.push('');
            out.push(rec);
            i = n;
            break;
          }
          continue;
        }
        if (c === CR) {
          if (j + 1 >= n && !final) break outer;
          j += s.charCodeAt(j + 1) === LF ? 2 : 1;
        } else j += 1;
        out.push(rec);
        i = j;
        break;
      }
    }
    this.buf = i < n ? s.slice(i) : '';
    return out;
  }
}

function indexOr(s: string, ch: string, from: number, none: number): number {
  const k = s.indexOf(ch, from);
  return k === -1 ? none : k;
}
