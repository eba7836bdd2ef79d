import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { createRowValidator, type ValidationContext } from './row-validator.ts';
import { withoutTextMarker } from './text-marker.ts';

// Values that were lost before decision 0096: a national phone of the row's own country, cells a spreadsheet
// kept as text with an apostrophe, and SHA-256 digests in fields whose real values are shorter than 64.
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0) / 1000;
// The phone column comes before the country column: the row's country must be known all the same.
const HEADERS = [
  'Email',
  'Phone',
  'Event',
  'When',
  'Source',
  'Value',
  'Currency',
  'Zip',
  'Gender',
  'Last',
  'Country',
];
const MAPPINGS: Record<string, string> = {
  Email: 'email',
  Phone: 'phone',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
  Value: 'value',
  Currency: 'currency',
  Zip: 'zip',
  Gender: 'gender',
  Last: 'last_name',
  Country: 'country',
};
function validator(over: Partial<ValidationContext> = {}) {
  return createRowValidator({
    headers: HEADERS,
    mappings: MAPPINGS,
    hardcoded: {},
    settings: DEFAULT_FILE_SETTINGS, // default phone country US
    now: NOW,
    ...over,
  });
}
const row = (o: Partial<Record<string, string>> = {}) => {
  const base: Record<string, string> = {
    Email: 'ann@example.com',
    Phone: '',
    Event: 'Purchase',
    When: '2026-11-21T10:00:00Z',
    Source: 'physical_store',
    Value: '12.50',
    Currency: 'GBP',
    Zip: '',
    Gender: '',
    Last: 'Smith',
    Country: '',
  };
  return HEADERS.map((h) => o[h] ?? base[h]!);
};
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe("a row's own country reads its phone", () => {
  it.each([
    ['GB', '07400 123456', '447400123456'],
    ['UK', '07400 123456', '447400123456'],
    ['United Kingdom', '+44 7400 123456', '447400123456'],
    ['France', '06 12 34 56 78', '33612345678'],
    ['FR', '01 23 45 67 89', '33123456789'],
    ['Netherlands', '020 123 4567', '31201234567'],
    ['NL', '06 12345678', '31612345678'],
    ['Nederland', '06-12345678', '31612345678'],
    ['GB', '447400123456', '447400123456'],
    // A North American number in a British row of a US file stays North American.
    ['GB', '(650) 555-1212', '16505551212'],
  ])('%s row, phone %s → %s', (country, phone, expected) => {
    const r = validator()(row({ Country: country, Phone: phone }), 2);
    expect(r.drops).toEqual([]);
    expect(r.effectiveRow.phone).toBe(expected);
  });

  it('uses a fixed country value the same way', () => {
    const v = validator({
      headers: HEADERS.slice(0, -1),
      mappings: Object.fromEntries(Object.entries(MAPPINGS).filter(([c]) => c !== 'Country')),
      hardcoded: { country: 'France' },
    });
    expect(v(row({ Phone: '06 12 34 56 78' }).slice(0, -1), 2).effectiveRow.phone).toBe('33612345678');
  });

  it('falls back to the default country, and names the countries it tried when neither reads the number', () => {
    const r = validator()(row({ Country: 'GB', Phone: '07700 900123' }), 2);
    expect(r.effectiveRow.phone).toBeUndefined();
    expect(r.drops).toEqual([
      {
        field: 'phone',
        reason: 'invalid',
        original: '07700 900123',
        message:
          'Dropped phone "07700 900123": it is not a valid phone number for GB, US or any country code.',
      },
    ]);
    // An unknown country is no country: the default alone.
    const unknown = validator()(row({ Country: 'Atlantis', Phone: '06 12 34 56 78' }), 2);
    expect(unknown.drops.map((d) => d.message)).toContain(
      'Dropped phone "06 12 34 56 78": it is not a valid phone number for US or any country code.',
    );
  });
});

describe('text apostrophes', () => {
  it('reads the value after a spreadsheet apostrophe in every field, and says so', () => {
    const r = validator()(
      row({
        Zip: "'02108",
        Phone: "'+1 602 555 0147",
        Value: "'-1200",
        Last: "'=Smith",
        Currency: "'GBP",
      }),
      2,
    );
    // "'GBP" keeps its apostrophe (one before a letter is the value's), and is no currency.
    expect(r.errors.map((e) => e.field)).toEqual(['currency']);
    expect(r.effectiveRow).toMatchObject({
      zip: '02108',
      phone: '16025550147',
      value: '-1200',
      last_name: 'smith',
    });
    expect(r.corrections).toContainEqual({
      field: 'zip',
      message: `Spreadsheet apostrophe removed: "'02108" read as "02108"`,
      original: "'02108",
      corrected: '02108',
    });
    for (const field of ['phone', 'value', 'last_name'])
      expect(
        r.corrections.some(
          (c) => c.field === field && c.message.startsWith('Spreadsheet apostrophe removed'),
        ),
        field,
      ).toBe(true);
    expect(r.corrections.some((c) => c.field === 'currency')).toBe(false);
  });

  it('keeps an apostrophe that belongs to the value', () => {
    expect(withoutTextMarker("'t Hart")).toBeNull();
    expect(withoutTextMarker("'s-Hertogenbosch")).toBeNull();
    expect(withoutTextMarker("'Aiea")).toBeNull();
    expect(withoutTextMarker("'02108")).toBe('02108');
    expect(withoutTextMarker("'=SUM(A1)")).toBe('=SUM(A1)');
    expect(withoutTextMarker("''x")).toBe("'x");
    expect(withoutTextMarker("'")).toBe('');
    const r = validator()(row({ Last: "'t Hart" }), 2);
    expect(r.effectiveRow.last_name).toBe('thart');
    expect(r.corrections.some((c) => c.field === 'last_name')).toBe(false);
  });

  it('reads a lone apostrophe as an empty cell', () => {
    const r = validator()(row({ Zip: "'" }), 2);
    expect(r.effectiveRow.zip).toBeUndefined();
    expect(r.corrections.filter((c) => c.field === 'zip')).toEqual([]);
    expect(r.drops).toEqual([]);
  });
});

describe('SHA-256 digests longer than the field allows', () => {
  it.each([
    ['Phone', 'phone', sha('16505551212')],
    ['Zip', 'zip', sha('02108')],
    ['Gender', 'gender', sha('f')],
    ['Phone', 'phone', sha('447400123456').toUpperCase()],
    ['Zip', 'zip', sha('sw1a1aa').toUpperCase()],
  ])('%s holding a digest is passed on lowercased', (column, field, digest) => {
    const r = validator()(row({ [column]: digest }), 2);
    expect(r.errors).toEqual([]);
    expect(r.drops).toEqual([]);
    expect(r.effectiveRow[field]).toBe(digest.toLowerCase());
  });

  it('still refuses what is longer than any real value and is no digest', () => {
    const r = validator()(row({ Zip: 'x'.repeat(64) }), 2);
    expect(r.errors.map((e) => e.field)).toEqual(['zip']);
    const notHex = validator()(row({ Phone: `${sha('1').slice(0, 63)}g` }), 2);
    expect(notHex.errors.map((e) => e.field)).toEqual(['phone']);
  });
});
