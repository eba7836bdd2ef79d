import { describe, expect, it } from 'vitest';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { createRowValidator, headerProblem, type ValidationContext } from './row-validator.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0) / 1000; // 2026-11-22T12:00:00Z
const HEADERS = [
  'Email',
  'Phone',
  'Event',
  'When',
  'Source',
  'Value',
  'Currency',
  'First',
  'Last',
  'DOB',
  'Order',
];
const MAPPINGS = {
  Email: 'email',
  Phone: 'phone',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
  Value: 'value',
  Currency: 'currency',
  First: 'first_name',
  Last: 'last_name',
  DOB: 'db',
  Order: 'order_id',
};

function validator(over: Partial<ValidationContext> = {}) {
  return createRowValidator({
    headers: HEADERS,
    mappings: MAPPINGS,
    hardcoded: {},
    settings: DEFAULT_FILE_SETTINGS,
    now: NOW,
    ...over,
  });
}
const row = (o: Partial<Record<string, string>> = {}) => {
  const base: Record<string, string> = {
    Email: 'ann@example.com',
    Phone: '(650)555-1212',
    Event: 'Purchase',
    When: '2026-11-21T10:00:00Z',
    Source: 'physical_store',
    Value: '$1,200.00',
    Currency: 'usd',
    First: 'Ann',
    Last: "O'Neil",
    DOB: '1990-01-31',
    Order: 'A-1',
  };
  return HEADERS.map((h) => o[h] ?? base[h]!);
};

describe('createRowValidator', () => {
  it('normalises a clean row and says what it corrected', () => {
    const r = validator()(row(), 2);
    expect(r.errors).toEqual([]);
    expect(r.effectiveRow).toMatchObject({
      email: 'ann@example.com',
      phone: '16505551212',
      event_name: 'Purchase',
      action_source: 'physical_store',
      event_time: String(Date.UTC(2026, 10, 21, 10) / 1000),
      value: '1200',
      currency: 'USD',
      first_name: 'ann',
      last_name: 'oneil',
      db: '19900131',
      order_id: 'A-1',
    });
    // "$1,200.00" is 1200 written differently: read, not corrected (issue 20).
    expect(r.corrections.map((c) => c.field)).toEqual(expect.arrayContaining(['phone', 'db']));
    expect(r.corrections.map((c) => c.field)).not.toContain('value');
    // "usd" is USD in lower case: read, not corrected (issue 29).
    expect(r.corrections.map((c) => c.field)).not.toContain('currency');
    expect(r.corrections.find((c) => c.field === 'phone')).toMatchObject({
      message: 'Added country code +1 to phone',
      original: '(650)555-1212',
      corrected: '16505551212',
    });
    expect(r.effectiveRow.event_id).toMatch(/^bs-[0-9a-f]{32}$/);
  });

  it('converts milliseconds to seconds and reports it', () => {
    const r = validator()(row({ When: String((NOW - 3600) * 1000) }), 2);
    expect(r.effectiveRow.event_time).toBe(String(NOW - 3600));
    expect(r.corrections.find((c) => c.field === 'event_time')?.message).toMatch(/milliseconds to seconds/);
  });

  it('reads a local time in the file time zone', () => {
    const r = validator({ settings: { ...DEFAULT_FILE_SETTINGS, timeZone: 'America/New_York' } })(
      row({ When: '2026-11-21 10:00' }),
      2,
    );
    expect(r.effectiveRow.event_time).toBe(String(Date.UTC(2026, 10, 21, 15) / 1000));
  });

  it('refuses events older than 7 days, or 62 days in store, and future ones', () => {
    const old = validator()(row({ When: '2026-11-10T10:00:00Z', Source: 'website' }), 2);
    expect(old.errors.find((e) => e.field === 'event_time')?.message).toMatch(
      /12 days old. Meta only accepts events up to 7 days old/,
    );
    const store = validator()(row({ When: '2026-11-10T10:00:00Z' }), 2);
    expect(store.errors.filter((e) => e.field === 'event_time')).toEqual([]);
    const ancient = validator()(row({ When: '2026-08-01T10:00:00Z' }), 2);
    expect(ancient.errors.find((e) => e.field === 'event_time')?.message).toMatch(/up to 62 days old/);
    const future = validator()(row({ When: '2026-11-22T12:05:00Z' }), 2);
    expect(future.errors.find((e) => e.field === 'event_time')?.message).toMatch(/in the future/);
    const skew = validator()(row({ When: '2026-11-22T12:00:30Z' }), 2);
    expect(skew.errors).toEqual([]);
  });

  it('warns when an event will pass its window within a day', () => {
    const r = validator()(row({ When: '2026-11-15T20:00:00Z', Source: 'phone_call' }), 2);
    expect(r.errors).toEqual([]);
    expect(r.warnings[0]?.message).toMatch(/becomes too old for Meta in 8 hours/);
  });

  it('says how old an event just past its window is without contradicting itself, and how long is left', () => {
    const warning = (when: string) =>
      validator()(row({ When: when, Source: 'phone_call' }), 2).warnings[0]?.message;
    const error = (when: string) =>
      validator()(row({ When: when, Source: 'phone_call' }), 2).errors.find((e) => e.field === 'event_time')
        ?.message;
    // NOW is 2026-11-22T12:00:00Z: seven days and one second before it.
    expect(error('2026-11-15T11:59:59Z')).toMatch(
      /is more than 7 days old\. Meta only accepts events up to 7 days old/,
    );
    expect(error('2026-11-14T11:59:59Z')).toMatch(/is 8 days old\./);
    expect(warning('2026-11-15T12:00:00Z')).toMatch(/in less than an hour\./);
    expect(warning('2026-11-15T13:30:00Z')).toMatch(/in 1 hour\./);
  });

  it('canonicalises event names and action sources', () => {
    const r = validator()(row({ Event: 'purchase', Source: 'In Store' }), 2);
    expect(r.effectiveRow).toMatchObject({ event_name: 'Purchase', action_source: 'physical_store' });
    const custom = validator()(row({ Event: 'BookedJob', Value: '1', Currency: 'USD' }), 2);
    expect(custom.effectiveRow.event_name).toBe('BookedJob');
    const bad = validator()(row({ Source: 'carrier pigeon' }), 2);
    expect(bad.errors[0]).toMatchObject({ field: 'action_source' });
  });

  it('requires value and currency for Purchase', () => {
    const r = validator()(row({ Value: '', Currency: '' }), 2);
    expect(r.errors.map((e) => e.message)).toEqual([
      'Purchase events need a value.',
      'Purchase events need a currency.',
    ]);
    const nan = validator()(row({ Value: 'NaN' }), 2);
    expect(nan.errors[0]).toMatchObject({
      field: 'value',
      message: expect.stringMatching(/^value "NaN" is not a number/),
    });
  });

  it('drops unusable identifiers as drops, not corrections, and needs one usable identifier', () => {
    const r = validator()(row({ Email: 'not-an-email' }), 2);
    expect(r.effectiveRow.email).toBeUndefined();
    expect(r.drops).toEqual([
      {
        field: 'email',
        reason: 'invalid',
        message: 'Dropped email "not-an-email": it is not a valid email address.',
        original: 'not-an-email',
      },
    ]);
    expect(r.corrections.find((c) => c.field === 'email')).toBeUndefined();
    expect(r.errors).toEqual([]);
    const none = validator()(row({ Email: 'x', Phone: '12', First: '', Last: '', DOB: '' }), 2);
    expect(none.errors.find((e) => e.field === 'user_data')?.message).toMatch(
      /No usable customer information/,
    );
  });

  it('passes already-hashed values through without hashing them again', () => {
    const h = 'A'.repeat(64);
    const r = validator()(row({ Email: h }), 2);
    expect(r.effectiveRow.email).toBe('a'.repeat(64));
  });

  it('needs event_source_url and client_user_agent for website events', () => {
    const r = validator()(row({ Source: 'website' }), 2);
    expect(r.errors.map((e) => e.field)).toEqual(['event_source_url', 'client_user_agent']);
  });

  it('needs advertiser_tracking_enabled and extinfo for app events', () => {
    const r = validator()(row({ Source: 'app' }), 2);
    expect(r.errors).toEqual([
      { field: 'advertiser_tracking_enabled', message: 'App events need advertiser_tracking_enabled.' },
      { field: 'extinfo', message: 'App events need extinfo.' },
    ]);
    const app = createRowValidator({
      headers: ['email', 'when', 'ate', 'ext'],
      mappings: { email: 'email', when: 'event_time', ate: 'advertiser_tracking_enabled', ext: 'extinfo' },
      hardcoded: { event_name: 'Lead', action_source: 'app' },
      settings: DEFAULT_FILE_SETTINGS,
      now: NOW,
    });
    const extinfo = 'I2|com.x|1.0|1.0 long|17.4|iPhone5,1|en_US|GMT-5||390|844|3|2|256|200|America/New_York';
    const ok = app(['ann@example.com', '2026-11-21T10:00:00Z', '1', extinfo], 2);
    expect(ok.errors).toEqual([]);
    expect(JSON.parse(ok.effectiveRow.extinfo!)).toEqual(['i2', ...extinfo.split('|').slice(1)]);
    expect(app(['ann@example.com', '2026-11-21T10:00:00Z', '1', 'a2,com.x,1'], 2).errors).toEqual([
      {
        field: 'extinfo',
        message: expect.stringMatching(
          /^extinfo must have 16 values in Meta's order \(empty ones kept\), not 3;/,
        ),
      },
    ]);
  });

  it('uses hardcoded values for unmapped fields', () => {
    const v = createRowValidator({
      headers: ['email', 'when'],
      mappings: { email: 'email', when: 'event_time' },
      hardcoded: { event_name: 'Lead', action_source: 'system_generated' },
      settings: DEFAULT_FILE_SETTINGS,
      now: NOW,
    });
    const r = v(['ann@example.com', '2026-11-21'], 2);
    expect(r.errors).toEqual([]);
    expect(r.effectiveRow).toMatchObject({ event_name: 'Lead', action_source: 'system_generated' });
  });

  it("takes customer_segmentation only as one of Meta's nine values, in any case", () => {
    const v = createRowValidator({
      headers: ['email', 'when', 'segment'],
      mappings: { email: 'email', when: 'event_time', segment: 'customer_segmentation' },
      hardcoded: { event_name: 'Lead', action_source: 'system_generated' },
      settings: DEFAULT_FILE_SETTINGS,
      now: NOW,
    });
    const ok = v(['ann@example.com', '2026-11-21', 'Customer_In_Loyalty_Program'], 2);
    expect(ok.errors).toEqual([]);
    expect(ok.effectiveRow.customer_segmentation).toBe('customer_in_loyalty_program');
    expect(v(['ann@example.com', '2026-11-21', 'VIP'], 3).errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^customer_segmentation "VIP" must be one of: new_customer_to_business, /),
    ]);
  });

  it("names every one of Meta's action_source values when a cell is none of them", () => {
    const v = createRowValidator({
      headers: ['email', 'when', 'source'],
      mappings: { email: 'email', when: 'event_time', source: 'action_source' },
      hardcoded: { event_name: 'Lead' },
      settings: DEFAULT_FILE_SETTINGS,
      now: NOW,
    });
    expect(v(['ann@example.com', '2026-11-21', 'business_messaging'], 2).errors).toEqual([]);
    expect(v(['ann@example.com', '2026-11-21', 'fax'], 3).errors.map((e) => e.message)).toEqual([
      `action_source "fax" is not one of Meta's values: email, website, app, phone_call, chat, physical_store, system_generated, other, business_messaging.`,
    ]);
  });

  it('names missing required fields', () => {
    const v = createRowValidator({
      headers: ['email'],
      mappings: { email: 'email' },
      hardcoded: {},
      settings: DEFAULT_FILE_SETTINGS,
      now: NOW,
    });
    expect(v(['a@b.co'], 2).errors.map((e) => e.message)).toEqual([
      'event_name is missing.',
      'event_time is missing.',
      'action_source is missing.',
    ]);
  });

  it('derives the same event_id for the same row on every run, and a different one for another row', () => {
    const a = validator()(row(), 2).effectiveRow.event_id;
    const b = validator()(row(), 9).effectiveRow.event_id;
    const c = validator()(row({ Order: 'A-2' }), 2).effectiveRow.event_id;
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('keeps a mapped event_id', () => {
    const v = createRowValidator({
      headers: [...HEADERS, 'id'],
      mappings: { ...MAPPINGS, id: 'event_id' },
      hardcoded: {},
      settings: DEFAULT_FILE_SETTINGS,
      now: NOW,
    });
    expect(v([...row(), ' order-77 '], 2).effectiveRow.event_id).toBe('order-77');
  });
});

describe('headerProblem', () => {
  it('reports mapped columns missing from the file', () => {
    expect(headerProblem({ headers: ['a'], mappings: { a: 'email' } })).toBeNull();
    expect(headerProblem({ headers: ['a'], mappings: { b: 'email' } })).toMatch(
      /^Your file headers don't match your mappings/,
    );
  });
});
