import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createCsvReader, readCsv } from './read-csv.ts';
import type { CsvItem } from './types.ts';

const enc = new TextEncoder();

async function read(input: string | Uint8Array, chunkSize = 7, options = {}) {
  const bytes = typeof input === 'string' ? enc.encode(input) : input;
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  const items: CsvItem[] = [];
  for await (const item of readCsv(chunks, options)) items.push(item);
  const header = items.find((i) => i.kind === 'header');
  return {
    items,
    header: header?.kind === 'header' ? header.info : undefined,
    rows: items.flatMap((i) => (i.kind === 'row' ? [i.values] : [])),
    rowNumbers: items.flatMap((i) => (i.kind === 'row' ? [i.rowNumber] : [])),
    issues: items.flatMap((i) => (i.kind === 'issue' ? [i.issue.code] : [])),
    notices: items.flatMap((i) => (i.kind === 'notice' ? [i.notice.code] : [])),
    fatal: items.find((i) => i.kind === 'fatal') as Extract<CsvItem, { kind: 'fatal' }> | undefined,
  };
}

describe('readCsv', () => {
  it.each([1, 3, 7, 1000])(
    'reads quoted fields with delimiters, quotes and newlines (chunk %i)',
    async (size) => {
      const r = await read('name,note\r\n"Smith, Ann","said ""hi""\nthen left"\r\nBob,plain\r\n', size);
      expect(r.header!.headers).toEqual(['name', 'note']);
      expect(r.rows).toEqual([
        ['Smith, Ann', 'said "hi"\nthen left'],
        ['Bob', 'plain'],
      ]);
      expect(r.rowNumbers).toEqual([2, 3]);
    },
  );

  it.each([
    ['comma', 'a,b\n1,2\n', ','],
    ['semicolon', 'a;b\n1,5;2\n', ';'],
    ['tab', 'a\tb\n1\t2\n', '\t'],
    ['pipe', 'a|b\n1|2\n', '|'],
  ])('detects the %s delimiter', async (_n, text, d) => {
    const r = await read(text);
    expect(r.header!.delimiter).toBe(d);
    expect(r.rows[0]).toHaveLength(2);
  });

  it('honours an Excel sep= line', async () => {
    const r = await read('sep=;\na;b\n1,5;2\n');
    expect(r.header!.headers).toEqual(['a', 'b']);
    expect(r.rows).toEqual([['1,5', '2']]);
  });

  it.each([
    ['LF', 'a,b\n1,2\n3,4'],
    ['CRLF', 'a,b\r\n1,2\r\n3,4\r\n'],
    ['CR', 'a,b\r1,2\r3,4\r'],
  ])('reads %s line endings', async (_n, text) => {
    const r = await read(text, 2);
    expect(r.rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('reads UTF-8 with a BOM and strips it from the first header', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('email,city\na@b.co,Zürich\n')]);
    const r = await read(bytes);
    expect(r.header).toMatchObject({ encoding: 'utf-8', headers: ['email', 'city'] });
    expect(r.rows[0]![1]).toBe('Zürich');
  });

  it.each(['utf-16le', 'utf-16be'] as const)('reads %s with a BOM', async (e) => {
    const text = 'name,city\nJosé,Köln\n';
    const body = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      body[i * 2 + (e === 'utf-16le' ? 0 : 1)] = c & 0xff;
      body[i * 2 + (e === 'utf-16le' ? 1 : 0)] = c >> 8;
    }
    const bom = e === 'utf-16le' ? [0xff, 0xfe] : [0xfe, 0xff];
    const r = await read(new Uint8Array([...bom, ...body]), 5);
    expect(r.header!.encoding).toBe(e);
    expect(r.rows).toEqual([['José', 'Köln']]);
  });

  it('falls back to Windows-1252 when the bytes are not UTF-8', async () => {
    // "Café,Müller" in Windows-1252, under a plain ASCII header (which reads the same in both)
    const r = await read(
      new Uint8Array([...enc.encode('a,b\nCaf'), 0xe9, 0x2c, 0x4d, 0xfc, ...enc.encode('ller\n')]),
    );
    expect(r.header!.encoding).toBe('utf-8');
    expect(r.issues).toEqual([]);
    expect(r.notices).toEqual(['ENCODING_CONVERTED']);
    expect(r.rows).toEqual([['Café', 'Müller']]);
  });

  it('makes blank and duplicate headers unique and reports them', async () => {
    const r = await read(' Email ,,email,Email\n1,2,3,4\n');
    expect(r.header!.headers).toEqual(['Email', 'column_2', 'email_2', 'Email_3']);
    expect(r.header!.issues.map((i) => i.code)).toEqual([
      'BLANK_HEADER',
      'DUPLICATE_HEADER',
      'DUPLICATE_HEADER',
    ]);
  });

  it('pads short rows, trims long ones, and reports both', async () => {
    const r = await read('a,b,c\n1\n1,2,3,4\n1,2,3,\n');
    expect(r.rows).toEqual([
      ['1', '', ''],
      ['1', '2', '3'],
      ['1', '2', '3'],
    ]);
    expect(r.issues).toEqual(['RAGGED_ROW', 'RAGGED_ROW']);
  });

  it('skips blank lines but keeps row numbers true to the file', async () => {
    const r = await read('a,b\n\n1,2\n,\n \t,\u00a0\u3000\ufeff\n3,4\n');
    expect(r.rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(r.rowNumbers).toEqual([3, 6]);
  });

  it('removes NUL bytes (an issue) and never cuts an over-long cell (a notice)', async () => {
    const r = await read(`a,b\nx\u0000y,${'z'.repeat(50)}\n`, 7, { maxCellChars: 10 });
    expect(r.rows).toEqual([['xy', 'z'.repeat(50)]]);
    expect(r.issues).toEqual(['NUL_BYTES']);
    expect(r.notices).toEqual(['LONG_CELLS']);
  });

  // Past the first 64 KB (read whole to sniff the file) text arrives chunk by chunk, and a record can start in
  // one chunk and end in a later one that has no NUL of its own.
  it.each([7, 1000])('removes NUL bytes that arrive after the first 64 KB (chunk %i)', async (size) => {
    const clean = 'ann,1\n'.repeat(11_000);
    const r = await read(`a,b\n${clean}x\u0000yz-long-enough-to-span-chunks,2\nbob,3\n`, size);
    expect(r.rows.at(-2)).toEqual(['xyz-long-enough-to-span-chunks', '2']);
    expect(r.rows.at(-1)).toEqual(['bob', '3']);
    expect(r.issues).toEqual(['NUL_BYTES']);
  });

  it('reports an unterminated quote and keeps the rest as one cell', async () => {
    const r = await read('a,b\n1,"open\n2,3\n');
    expect(r.issues).toContain('UNTERMINATED_QUOTE');
    expect(r.rows).toEqual([['1', 'open\n2,3\n']]);
  });

  it('stops on a runaway record', async () => {
    const r = await read(`a\n"${'x'.repeat(300)}`, 16, { maxLineChars: 100 });
    expect(r.fatal?.code).toBe('TOO_LONG');
  });

  it.each([
    ['empty', '', 'EMPTY'],
    ['whitespace only', '  \n\n', 'EMPTY'],
    ['header only', 'email,phone\n', 'HEADER_ONLY'],
  ])('rejects an %s file', async (_n, text, code) => {
    expect((await read(text)).fatal?.code).toBe(code);
  });

  it.each([
    ['PNG', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0], /PNG image/],
    ['gzip', [0x1f, 0x8b, 0x08, 0, 0, 0], /gzip/],
    ['xlsx', [0x50, 0x4b, 0x03, 0x04, 0x14, 0], /Excel workbook/],
  ])('rejects %s bytes with a plain message', async (_n, bytes, message) => {
    const r = await read(new Uint8Array(bytes));
    expect(r.fatal?.code).toBe('BINARY');
    expect(r.fatal?.message).toMatch(message);
  });

  it('rejects other binary data as not text', async () => {
    const noise = new Uint8Array(400).map((_, i) => (i * 7) % 9);
    expect((await read(noise)).fatal?.code).toBe('NOT_TEXT');
  });

  // Bytes of no known format, ~10% of them control bytes as in any random data.
  it.each([128, 300, 511])('rejects %i bytes of noise as not text', async (size) => {
    const noise = new Uint8Array(size).map((_, i) => (i * 73 + 11) % 256);
    expect((await read(noise)).fatal?.code).toBe('NOT_TEXT');
  });

  it('reads a short file with a few stray control bytes as text', async () => {
    const r = await read('email,name\na@b.co,A\u0001n\u0002n\nc@d.co,B\u0003o\n');
    expect(r.fatal).toBeUndefined();
    expect(r.rows).toHaveLength(2);
  });

  it('never throws and always ends, whatever the bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 400 }),
        fc.integer({ min: 1, max: 64 }),
        async (bytes, size) => {
          const r = await read(bytes, size);
          const fatals = r.items.filter((i) => i.kind === 'fatal').length;
          expect(fatals).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('splits into the same records whatever the chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.array(fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r', ' ', 'é') }), {
            minLength: 1,
            maxLength: 4,
          }),
          { minLength: 2, maxLength: 6 },
        ),
        fc.integer({ min: 1, max: 9 }),
        async (table, size) => {
          const quote = (c: string) => `"${c.replace(/"/g, '""')}"`;
          const text = table.map((r) => r.map(quote).join(',')).join('\r\n');
          const whole = await read(text, 1 << 20);
          const pieces = await read(text, size);
          expect(pieces.rows).toEqual(whole.rows);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('exposes a synchronous incremental reader', () => {
    const reader = createCsvReader();
    const items = [...reader.push(enc.encode('a,b\n1,2\n')), ...reader.end()];
    expect(items.map((i) => i.kind)).toEqual(['header', 'row']);
  });
});
