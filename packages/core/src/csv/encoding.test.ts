import { describe, expect, it } from 'vitest';
import { readCsv } from './read-csv.ts';
import type { CsvItem } from './types.ts';

const enc = new TextEncoder();
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

async function read(bytes: Uint8Array, chunkSize: number) {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  const items: CsvItem[] = [];
  for await (const item of readCsv(chunks)) items.push(item);
  return items;
}
const rowsOf = (items: CsvItem[]) => items.flatMap((i) => (i.kind === 'row' ? [i.values] : []));
// The conversion is a file notice now (issue 20), told once at the end.
const issuesOf = (items: CsvItem[]) =>
  items.flatMap((i) => (i.kind === 'issue' ? [i.issue.code] : i.kind === 'notice' ? [i.notice.code] : []));

// 7,000 plain rows (about 150 KB) before the first accent, far past any fixed-size sniff.
const plain =
  'name,email\n' + Array.from({ length: 7000 }, (_, i) => `user${i},user${i}@example.com\n`).join('');

describe('encoding decided at the first non-ASCII byte', () => {
  it.each([
    [
      'Windows-1252 é',
      cat(ascii(plain), ascii('Jos\xE9,jose@example.com\n')),
      'José',
      ['ENCODING_CONVERTED'],
    ],
    [
      'Windows-1252 ü, then é',
      cat(ascii(plain), ascii('M\xFCller,m@example.com\nJos\xE9,j@example.com\n')),
      'Müller',
      ['ENCODING_CONVERTED'],
    ],
    ['UTF-8 é', cat(ascii(plain), enc.encode('José,jose@example.com\n')), 'José', []],
    ['UTF-8 emoji', cat(ascii(plain), enc.encode('Jo😀,jose@example.com\n')), 'Jo😀', []],
  ])('%s at row 7002', async (_n, bytes, name, issues) => {
    for (const size of [1, 3, 1000, 64 * 1024, 1 << 20]) {
      const items = await read(bytes, size);
      expect(rowsOf(items)[7000]![0]).toBe(name);
      expect(issuesOf(items)).toEqual(issues);
    }
  });

  it('reads a Windows-1252 header as such', async () => {
    const items = await read(ascii('Pr\xE9nom,email\nAnn,a@example.com\n'), 2);
    expect(items[0]).toMatchObject({
      kind: 'header',
      info: { headers: ['Prénom', 'email'], encoding: 'windows-1252' },
    });
    expect(issuesOf(items)).toEqual(['ENCODING_CONVERTED']);
  });

  it('yields the header before an INVALID_CHARACTERS issue', async () => {
    // Valid UTF-8 first, then a stray byte, all in one chunk with the header.
    const items = await read(
      cat(enc.encode('name,email\nJosé,j@example.com\nBad'), ascii('\xFF'), enc.encode(',b@example.com\n')),
      1 << 20,
    );
    expect(items.map((i) => i.kind)).toEqual(['header', 'row', 'row', 'issue']);
    expect(issuesOf(items)).toEqual(['INVALID_CHARACTERS']);
    expect(rowsOf(items)[0]![0]).toBe('José');
  });

  it.each([
    ['one NUL in a tiny file', 'a,b\n1,x\u0000y\n', [['1', 'xy']]],
    [
      'NULs in a short file',
      'email,phone\nann@example.com,\u0000\u0000\nbob@example.com,1\n',
      [
        ['ann@example.com', ''],
        ['bob@example.com', '1'],
      ],
    ],
  ])('reports %s as data, not as a binary file', async (_n, text, rows) => {
    const items = await read(enc.encode(text), 4);
    expect(items.find((i) => i.kind === 'fatal')).toBeUndefined();
    expect(rowsOf(items)).toEqual(rows);
    expect(issuesOf(items)).toContain('NUL_BYTES');
  });
});
