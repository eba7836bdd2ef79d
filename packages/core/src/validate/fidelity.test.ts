import { describe, expect, it } from 'vitest';
import { normalizeDateOfBirth } from '../normalize/dates.ts';
import { normalizeEmail } from '../normalize/email.ts';
import { normalizeCountry, normalizeState } from '../normalize/places.ts';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { createRowValidator } from './row-validator.ts';

// Issue 20: values read wrong, corrections that change nothing, and nothing cut and sent.
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0) / 1000;
const TODAY = { y: 2026, m: 11, d: 22 };
const HEADERS = ['Email', 'Event', 'When', 'Source', 'Value', 'Currency', 'First', 'City', 'Notes', 'Order'];
const MAPPINGS = {
  Email: 'email',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
  Value: 'value',
  Currency: 'currency',
  First: 'first_name',
  City: 'city',
  Order: 'order_id',
};
const validate = createRowValidator({
  headers: HEADERS,
  mappings: MAPPINGS,
  hardcoded: {},
  settings: DEFAULT_FILE_SETTINGS,
  now: NOW,
});
const row = (o: Partial<Record<string, string>> = {}) => {
  const base: Record<string, string> = {
    Email: 'ann@example.com',
    Event: 'Purchase',
    When: '1795255200',
    Source: 'physical_store',
    Value: '34.5',
    Currency: 'USD',
    First: 'ann',
    City: 'paris',
    Notes: '',
    Order: 'A-1',
  };
  return HEADERS.map((h) => o[h] ?? base[h]!);
};

describe('a correction is a changed value', () => {
  it.each(['34.60', '33.00', '1,200.00', '1200.0', '$1,200.00'])(
    'an amount written differently but equal (%s) is not a correction',
    (value) => {
      const r = validate(row({ Value: value }), 2);
      expect(r.errors).toEqual([]);
      expect(r.corrections).toEqual([]);
    },
  );

  it('a row whose only rewrites are equal numbers is clean', () => {
    expect(validate(row({ Value: '1,200.00' }), 2).corrections).toEqual([]);
  });

  it('an ambiguous amount is still a correction: its reading is a choice', () => {
    expect(validate(row({ Value: '1,234' }), 2).corrections.map((c) => c.field)).toEqual(['value']);
  });

  it('removing zero-width characters from an e-mail is a correction', () => {
    const r = normalizeEmail('ann\u200B@example.com');
    expect(r).toMatchObject({ ok: true, value: 'ann@example.com' });
    expect(r.ok && r.note).toMatch(/invisible/);
    const row2 = validate(row({ Email: 'ann\u200B@exam\u200Dple.com' }), 2);
    expect(row2.corrections.map((c) => c.field)).toEqual(['email']);
  });
});

describe('e-mail cells', () => {
  it('splits a cell only when two or more parts hold an "@"', () => {
    expect(normalizeEmail('ann@example.com, bob@example.com')).toMatchObject({
      ok: true,
      value: 'ann@example.com',
    });
  });

  it.each(['john smith@example.com', 'John Smith john@example.com', 'ann @example.com'])(
    'a space inside one address (%s) makes it invalid, never shortened',
    (v) => {
      expect(normalizeEmail(v)).toEqual({ ok: false, reason: 'is not a valid email address' });
    },
  );

  it('a space inside an address drops the e-mail with its reason', () => {
    const r = validate(row({ Email: 'john smith@example.com' }), 2);
    expect(r.effectiveRow.email).toBeUndefined();
    // A drop with its reason, not a correction (i19: dropped values are their own category).
    expect(r.corrections).toEqual([]);
    expect(r.drops).toEqual([
      expect.objectContaining({
        field: 'email',
        reason: 'invalid',
        message: expect.stringMatching(/not a valid/),
      }),
    ]);
  });
});

describe('traditional US state abbreviations', () => {
  it.each([
    ['Calif.', 'ca'],
    ['Mass.', 'ma'],
    ['Fla.', 'fl'],
    ['Tex.', 'tx'],
    ['Penn.', 'pa'],
    ['Penna.', 'pa'],
    ['Ariz.', 'az'],
    ['Wash.', 'wa'],
    ['Ala.', 'al'],
    ['Conn.', 'ct'],
    ['Ill.', 'il'],
    ['Mich.', 'mi'],
    ['Minn.', 'mn'],
    ['Miss.', 'ms'],
    ['Okla.', 'ok'],
    ['Tenn.', 'tn'],
    ['Wis.', 'wi'],
    ['W. Va.', 'wv'],
    ['N. Dak.', 'nd'],
    ['N.Y.', 'ny'],
    ['D.C.', 'dc'],
  ])('%s → %s', (raw, code) => {
    expect(normalizeState(raw)).toMatchObject({ ok: true, value: code });
  });

  it('an unknown dotted abbreviation is dropped with its reason, never sent as text', () => {
    const r = normalizeState('Calf.');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/abbreviation/);
  });

  it('full names of other regions still pass', () => {
    expect(normalizeState('Bavaria')).toMatchObject({ ok: true, value: 'bavaria' });
  });
});

describe('dates of birth', () => {
  it.each([
    'Sun Feb 16 1997 00:00:00 GMT+0100 (Central European Standard Time)',
    'Sun Feb 16 1997 00:00:00 GMT-0800 (Pacific Standard Time)',
    'Sun Feb 16 1997 00:00:00 GMT+0530',
    'Sun Feb 16 1997 09:30:00 GMT+0000 (Coordinated Universal Time)',
  ])('reads a JavaScript Date string: %s', (v) => {
    expect(normalizeDateOfBirth(v, 'MDY', TODAY)).toMatchObject({ ok: true, value: '19970216' });
  });

  it.each([
    ['1997/16/02', '19970216'],
    ['1997/16/2', '19970216'],
    ['1997.31.12', '19971231'],
    ['1997 16 02', '19970216'],
  ])('reads year/day/month when the middle is above 12: %s', (v, want) => {
    expect(normalizeDateOfBirth(v, 'MDY', TODAY)).toMatchObject({ ok: true, value: want });
  });

  it('keeps ISO year-month-day strict: "1990-13-01" has a month 13', () => {
    expect(normalizeDateOfBirth('1990-13-01', 'MDY', TODAY).ok).toBe(false);
  });
});

describe('countries in non-Latin scripts (CLDR names)', () => {
  it.each([
    ['美国', 'us'],
    ['中国', 'cn'],
    ['日本', 'jp'],
    ['アメリカ合衆国', 'us'],
    ['대한민국', 'kr'],
    ['미국', 'us'],
    ['Россия', 'ru'],
    ['США', 'us'],
    ['Германия', 'de'],
    ['مصر', 'eg'],
    ['المملكة المتحدة', 'gb'],
    ['ישראל', 'il'],
    ['Ελλάδα', 'gr'],
    ['भारत', 'in'],
  ])('%s → %s', (raw, code) => {
    expect(normalizeCountry(raw)).toMatchObject({ ok: true, value: code });
  });

  it.each(['Atlantis', '!!!', 'Шмиртляндия', '火星'])(
    '"%s" is not a country we recognise, never "is empty"',
    (v) => {
      expect(normalizeCountry(v)).toEqual({ ok: false, reason: 'is not a country we recognise' });
    },
  );
});

describe('nothing cut and sent', () => {
  it('an e-mail over 254 characters flags its row with an error', () => {
    const long = `${'a'.repeat(60)}@${'b'.repeat(250)}.com`;
    const r = validate(row({ Email: long }), 2);
    expect(r.errors).toEqual([
      { field: 'email', message: expect.stringMatching(/longer than any real email.*254/i) },
    ]);
    expect(r.corrections).toEqual([]);
    expect(r.effectiveRow.email).toBeUndefined();
  });

  it('a name or city over its limit flags the row, never truncated', () => {
    const r = validate(row({ First: 'Ann'.repeat(100), City: 'x'.repeat(5000) }), 2);
    expect(r.errors.map((e) => e.field).sort()).toEqual(['city', 'first_name']);
    expect(r.effectiveRow.first_name).toBeUndefined();
    expect(r.effectiveRow.city).toBeUndefined();
  });

  it('any other mapped cell over 10,000 characters flags the row', () => {
    const r = validate(row({ Order: 'A'.repeat(10_001) }), 2);
    expect(r.errors.map((e) => e.field)).toEqual(['order_id']);
  });

  it('an over-long cell in an unmapped column is no row error', () => {
    const r = validate(row({ Notes: 'n'.repeat(50_000) }), 2);
    expect(r.errors).toEqual([]);
  });
});
