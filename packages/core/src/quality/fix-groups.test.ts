import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELDS } from '../fields/catalogue.ts';
import { FULL_NAME } from '../mapping/full-name.ts';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { createRowValidator, type RowCorrection } from '../validate/row-validator.ts';
import {
  FIX_GROUPS,
  FIX_GROUP_FIELDS,
  fixCode,
  fixGroupOf,
  hasFixGroup,
  type FixGroup,
} from './fix-groups.ts';

const groups = (code: number) => FIX_GROUPS.filter((_, i) => hasFixGroup(code, i));
const fix = (field: string): RowCorrection => ({ field, message: 'm', original: 'a', corrected: 'b' });
const ALL_FIELDS = [...FIELDS.map((f) => f.key), FULL_NAME];

describe('fix groups', () => {
  it('give every field a correction can name exactly one group: a field added to the catalogue must be placed', () => {
    const listed = FIX_GROUPS.flatMap((g) => FIX_GROUP_FIELDS[g]);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...ALL_FIELDS].sort());
  });

  it('fit a byte, as the packed events carry them', () => {
    expect(FIX_GROUPS.length).toBeLessThanOrEqual(8);
    expect(Object.keys(FIX_GROUP_FIELDS).sort()).toEqual([...FIX_GROUPS].sort());
  });

  it('group the fields the report names', () => {
    const expected: Record<string, FixGroup> = {
      email: 'email',
      phone: 'phone',
      first_name: 'name',
      last_name: 'name',
      full_name: 'name',
      db: 'date_of_birth',
      city: 'address',
      state: 'address',
      zip: 'address',
      country: 'address',
      event_time: 'event_time',
      value: 'value',
      currency: 'value',
    };
    for (const key of ALL_FIELDS) expect([key, fixGroupOf(key)]).toEqual([key, expected[key] ?? 'other']);
    expect(fixGroupOf('no_such_field')).toBe('other');
  });
});

describe('fixCode', () => {
  it('is 0 for a row without corrections', () => {
    expect(fixCode([])).toBe(0);
  });

  it('sets one bit per group corrected, however many of its fields were', () => {
    const code = fixCode([fix('city'), fix('zip'), fix('phone'), fix('event_name'), fix('order_id')]);
    expect(groups(code)).toEqual(['phone', 'address', 'other']);
    expect(fixCode([fix('_valueToSum')])).toBe(1 << FIX_GROUPS.indexOf('other'));
    expect(fixCode([fix('currency')])).toBe(1 << FIX_GROUPS.indexOf('value'));
  });

  it('leaves out a field whose corrected value was then dropped', () => {
    expect(groups(fixCode([fix('email'), fix('db')], [{ field: 'email' }]))).toEqual(['date_of_birth']);
    expect(fixCode([fix('email')], [{ field: 'email' }])).toBe(0);
  });

  it('is the union of the corrected fields’ groups, for any corrections and drops', () => {
    const field = fc.oneof(fc.constantFrom(...ALL_FIELDS), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(
        fc.array(field, { maxLength: 12 }),
        fc.array(field, { maxLength: 3 }),
        (fields, dropped) => {
          const kept = fields.filter((f) => !dropped.includes(f));
          const want = new Set(kept.map(fixGroupOf));
          expect(
            groups(
              fixCode(
                fields.map(fix),
                dropped.map((f) => ({ field: f })),
              ),
            ),
          ).toEqual(FIX_GROUPS.filter((g) => want.has(g)));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('reads the corrections the row validator makes', () => {
    const NOW = Date.UTC(2026, 10, 24, 12) / 1000;
    const headers = [
      'email',
      'phone',
      'Name',
      'db',
      'state',
      'event_time',
      'value',
      'currency',
      'event_name',
    ];
    const validate = createRowValidator({
      headers,
      mappings: { ...Object.fromEntries(headers.map((h) => [h, h])), Name: FULL_NAME },
      hardcoded: { action_source: 'physical_store' },
      settings: DEFAULT_FILE_SETTINGS,
      now: NOW,
    });
    const at = String((NOW - 3600) * 1000);
    const clean = validate(
      ['a@b.co', '+14155550100', 'Ann Lee', '19900131', 'ca', at.slice(0, -3), '10', 'USD', 'Lead'],
      2,
    );
    expect(clean.corrections).toEqual([]);
    const fixed = validate(
      ['mailto:a@b.co', '(415) 555-0100', "' Ann Lee", '1990-01-31', 'California', at, '10', '$', 'lead'],
      3,
    );
    expect(fixed.errors).toEqual([]);
    expect(groups(fixCode(fixed.corrections, fixed.drops))).toEqual([
      'email',
      'phone',
      'name',
      'date_of_birth',
      'address',
      'event_time',
      'value',
      'other',
    ]);
    const dropped = validate(["'@nobody", '', '', '', '', at, '', '', 'Lead'], 4);
    expect(dropped.corrections.map((c) => c.field)).toEqual(['email', 'event_time']);
    expect(groups(fixCode(dropped.corrections, dropped.drops))).toEqual(['event_time']);
  });
});
