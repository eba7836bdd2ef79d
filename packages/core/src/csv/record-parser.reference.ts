// Test-only: the RecordParser as it was before the unquoted-line fast path, kept verbatim as the reference
// that record-parser.property.test.ts compares the optimised parser against. Never import it outside tests.

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * Incremental RFC 4180 record splitter over decoded text: quoted fields with delimiters, doubled quotes and
 * line breaks; CRLF, LF and CR endings. Lenient where files are sloppy (text after a closing quote is kept).
 * A record that is not complete yet stays buffered until more text or the end arrives.
 */
export class ReferenceRecordParser {
  private buf = '';
  /** Set when the final record ran to the end of the file inside quotes. */
  unterminatedQuote = false;

  constructor(readonly delimiter: string) {}

  /** Characters buffered for an incomplete record (to stop runaway unclosed quotes). */
  get pending(): number {
    return this.buf.length;
  }

  feed(text: string, final: boolean): string[][] {
    const s = this.buf.length ? this.buf + text : text;
    const n = s.length;
    const D = this.delimiter.charCodeAt(0);
    const out: string[][] = [];
    let i = 0;
    outer: while (i < n) {
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
