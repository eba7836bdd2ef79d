import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv-out.ts';

describe('csvCell', () => {
  // OWASP CSV injection: = + - @ tab, CR, LF and NUL (security.md §2.8).
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1', '\n=HYPERLINK("http://evil","x")', '\0=1+1'])(
    'neutralises %j with a leading apostrophe',
    (raw) => expect(csvCell(raw)).toMatch(/^"'/),
  );

  it.each([
    ['plain', '"plain"'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    // A semicolon splits an unquoted cell in Excel set to a ';' list separator.
    ['x;=HYPERLINK(F2;E2);', '"x;=HYPERLINK(F2;E2);"'],
    [null, '""'],
    [42, '"42"'],
  ])('writes %j as %s', (raw, out) => expect(csvCell(raw)).toBe(out));

  it('ends a line with CRLF', () => expect(csvLine(['a', 'b'])).toBe('"a","b"\r\n'));
});
