import { describe, expect, it } from 'vitest';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { createRowValidator } from '../validate/row-validator.ts';
import { validationNotices } from './notices.ts';
import { readCsv } from './read-csv.ts';
import type { CsvItem } from './types.ts';

// Issue 20: every repair of the file itself is a file notice, named once with how many rows or cells it touched.
const enc = new TextEncoder();
const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...enc.encode(p)] : p)));
const latin = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const utf16 = (s: string, order: 'le' | 'be', bom: boolean) => {
  const out: number[] = bom ? (order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]) : [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (order === 'le') out.push(c & 0xff, c >> 8);
    else out.push(c >> 8, c & 0xff);
  }
  return Uint8Array.from(out);
};

async function read(input: string | Uint8Array, chunkSize = 1 << 20) {
  const all = typeof input === 'string' ? enc.encode(input) : input;
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < all.length; i += chunkSize) chunks.push(all.subarray(i, i + chunkSize));
  const items: CsvItem[] = [];
  for await (const item of readCsv(chunks)) items.push(item);
  const header = items.find((i) => i.kind === 'header');
  return {
    headers: header?.kind === 'header' ? header.info.headers : null,
    trimmedHeaders: header?.kind === 'header' ? header.info.trimmedHeaders : null,
    rows: items.flatMap((i) => (i.kind === 'row' ? [i.values] : [])),
    rowNumbers: items.flatMap((i) => (i.kind === 'row' ? [i.rowNumber] : [])),
    notices: items.flatMap((i) => (i.kind === 'notice' ? [i.notice] : [])),
    issues: items.flatMap((i) => (i.kind === 'issue' ? [i.issue.code] : [])),
    fatal: items.find((i) => i.kind === 'fatal'),
  };
}

const CSV = 'name,email\nJosé,jose@example.com\nZoë,zoe@example.com\n';

describe('encoding detected and converted', () => {
  it.each([
    ['UTF-16 LE', 'le', true],
    ['UTF-16 LE', 'le', false],
    ['UTF-16 BE', 'be', true],
    ['UTF-16 BE', 'be', false],
  ] as const)('%s (%s, BOM %s)', async (name, order, bom) => {
    const r = await read(utf16(CSV, order, bom), 7);
    expect(r.fatal).toBeUndefined();
    expect(r.rows).toEqual([
      ['José', 'jose@example.com'],
      ['Zoë', 'zoe@example.com'],
    ]);
    expect(r.notices).toEqual([
      expect.objectContaining({
        code: 'ENCODING_CONVERTED',
        count: 3,
        message: expect.stringContaining(name),
      }),
    ]);
    expect(r.notices[0]!.message).toContain(bom ? 'with a byte-order mark' : 'without a byte-order mark');
  });

  it('Windows-1252 (its own characters such as € and ’ present)', async () => {
    const r = await read(latin('name,note\nJos\xe9,10 \x80\nAnn,it\x92s\nBob,plain\n'));
    expect(r.rows[0]).toEqual(['José', '10 €']);
    expect(r.notices).toEqual([
      expect.objectContaining({
        code: 'ENCODING_CONVERTED',
        count: 2,
        message: expect.stringContaining('Windows-1252'),
      }),
    ]);
    expect(r.issues).toEqual([]);
  });

  it('Latin-1 (no Windows-1252-only characters)', async () => {
    const r = await read(latin('name,city\nJos\xe9,K\xf6ln\nAnn,Paris\n'));
    expect(r.rows[0]).toEqual(['José', 'Köln']);
    expect(r.notices).toEqual([
      expect.objectContaining({
        code: 'ENCODING_CONVERTED',
        count: 1,
        message: expect.stringContaining('Latin-1'),
      }),
    ]);
  });

  it('a UTF-8 file (with or without BOM) needs no notice', async () => {
    expect((await read(CSV)).notices).toEqual([]);
    expect((await read(bytes([0xef, 0xbb, 0xbf], CSV))).notices).toEqual([]);
  });
});

describe('line endings normalised', () => {
  it('CR-only', async () => {
    const r = await read('a,b\r1,2\r3,4\r');
    expect(r.rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(r.notices).toEqual([
      expect.objectContaining({
        code: 'LINE_ENDINGS',
        count: 3,
        message: expect.stringMatching(/carriage return/),
      }),
    ]);
  });

  it('mixed CRLF and LF: the lines unlike the rest are counted', async () => {
    const r = await read('a,b\r\n1,2\r\n3,4\n5,6\r\n');
    expect(r.rows.length).toBe(3);
    expect(r.notices).toEqual([
      expect.objectContaining({ code: 'LINE_ENDINGS', count: 1, message: expect.stringMatching(/mixe/) }),
    ]);
  });

  it('a line break inside a quoted cell is data, not a line ending', async () => {
    const r = await read('a,b\r\n"line 1\nline 2",x\r\n3,4\r\n');
    expect(r.rows[0]).toEqual(['line 1\nline 2', 'x']);
    expect(r.notices).toEqual([]);
  });

  it('consistent CRLF or LF needs no notice', async () => {
    expect((await read('a,b\r\n1,2\r\n')).notices).toEqual([]);
    expect((await read('a,b\n1,2\n')).notices).toEqual([]);
  });
});

describe('blank lines dropped', () => {
  it('inner and trailing, counted once', async () => {
    const r = await read('a,b\n1,2\n\n3,4\n,\n\n\n');
    expect(r.rows.length).toBe(2);
    expect(r.notices).toEqual([expect.objectContaining({ code: 'BLANK_LINES', count: 4 })]);
  });

  it('a single final line break is no blank line', async () => {
    expect((await read('a,b\n1,2\n')).notices).toEqual([]);
  });
});

describe('a title or notes line above the header row', () => {
  it('is found and skipped instead of taken as the header', async () => {
    const r = await read(
      'Report generated 2026-11-20 by Acme CRM\nemail,phone,event_name\na@b.com,1,Purchase\n',
    );
    expect(r.headers).toEqual(['email', 'phone', 'event_name']);
    expect(r.rows).toEqual([['a@b.com', '1', 'Purchase']]);
    expect(r.notices).toEqual([
      expect.objectContaining({
        code: 'TITLE_SKIPPED',
        count: 1,
        message: expect.stringContaining('Report generated 2026-11-20 by Acme CRM'),
      }),
    ]);
    // Row numbers stay those of the file, as a spreadsheet shows them.
    expect(r.rowNumbers).toEqual([3]);
  });

  it('padded by a spreadsheet, several of them, with a blank line before the header', async () => {
    const r = await read(
      'Exported from HubSpot on 11/20/2026,,\nNotes: amounts in USD,,\n,,\nemail;x,phone,value\na@b.com,1,2\n',
    );
    expect(r.headers).toEqual(['email;x', 'phone', 'value']);
    expect(r.notices.find((n) => n.code === 'TITLE_SKIPPED')).toMatchObject({ count: 2 });
  });

  it('with a semicolon delimiter', async () => {
    const r = await read('Report generated today\nemail;phone;value\na@b.com;1;2\nc@d.com;3;4\n');
    expect(r.headers).toEqual(['email', 'phone', 'value']);
    expect(r.rows.length).toBe(2);
  });

  it('a header with one named column is not a title', async () => {
    const r = await read('email,,\na@b.com,1,2\n');
    expect(r.headers).toEqual(['email', 'column_2', 'column_3']);
    expect(r.notices).toEqual([]);
  });

  it('a one-column file keeps its header', async () => {
    const r = await read('Email Address\na@b.com\n');
    expect(r.headers).toEqual(['Email Address']);
  });
});

describe('whitespace and over-long cells', () => {
  it('counts the header names it trimmed', async () => {
    const r = await read(' email ,phone\t,value\na,1,2\n');
    expect(r.headers).toEqual(['email', 'phone', 'value']);
    expect(r.trimmedHeaders).toBe(2);
  });

  it('never cuts a cell: an over-long one is counted per column', async () => {
    const long = 'x'.repeat(20_000);
    const r = await read(`a,notes\n1,${long}\n2,${long}\n3,short\n`);
    expect(r.rows[0]![1]).toBe(long);
    expect(r.notices).toEqual([expect.objectContaining({ code: 'LONG_CELLS', column: 'notes', count: 2 })]);
  });
});

describe('the notices a validation reports', () => {
  it('names whitespace once, for header names and mapped cells together', async () => {
    const r = await read(
      ' email ,event_name,action_source,event_time,notes\n a@b.com ,Lead,\tother,1795255200, x \n',
    );
    const stats = { trimmedCells: 0 };
    const validate = createRowValidator(
      {
        headers: r.headers!,
        mappings: {
          email: 'email',
          event_name: 'event_name',
          action_source: 'action_source',
          event_time: 'event_time',
        },
        hardcoded: {},
        settings: DEFAULT_FILE_SETTINGS,
        now: 1795262400,
      },
      stats,
    );
    const row = validate(r.rows[0]!, 2);
    expect(row.errors).toEqual([]);
    expect(row.corrections).toEqual([]);
    const notices = validationNotices(r.notices, new Set(['email']), r.trimmedHeaders!, stats.trimmedCells);
    expect(notices).toEqual([
      {
        code: 'WHITESPACE_TRIMMED',
        count: 3,
        message: 'Whitespace: spaces around 1 column name and 2 cells were trimmed.',
      },
    ]);
  });

  it('leaves out a long-cells notice for a mapped column: its rows carry the error', () => {
    const long = { code: 'LONG_CELLS' as const, count: 1, column: 'email', message: 'x' };
    expect(validationNotices([long], new Set(['email']), 0, 0)).toEqual([]);
    expect(validationNotices([long], new Set(['phone']), 0, 0)).toEqual([long]);
  });
});
