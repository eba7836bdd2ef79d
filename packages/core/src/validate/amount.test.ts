import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import {
  canonicalDigits,
  detectDecimalSeparator,
  plainDigits,
  readAmount,
  usualAmount,
  type DecimalSeparator,
} from './amount.ts';
import { createRowValidator } from './row-validator.ts';
import { parseAmount } from './values.ts';

describe('parseAmount', () => {
  it.each([
    ['$1,200.00', 1200],
    ['1.234,56', 1234.56],
    ['1 234,56', 1234.56],
    ['1\u00a0234,56', 1234.56],
    ['1\u202f234.56', 1234.56],
    ["1'234.50", 1234.5],
    ['1234.5', 1234.5],
    ['€12,50', 12.5],
    ['12,5', 12.5],
    ['12', 12],
    ['0.99', 0.99],
    ['.5', 0.5],
    ['1,234,567.89', 1234567.89],
    ['1.234.567,89', 1234567.89],
    ['1,234,567', 1234567],
    ['12,34,567.50', 1234567.5],
    ['USD 12.00', 12],
    ['12.00 EUR', 12],
    ['(12.50)', -12.5],
    ['-12.50', -12.5],
    ['£0,125', 0.125],
    ['0.125', 0.125],
    ['1234,567', 1234.567],
    ['1.2345', 1.2345],
    // One separator and exactly three digits: read consistently as thousands without evidence.
    ['1,234', 1234],
    ['1.234', 1234],
    ['12,500', 12500],
    ['999.000', 999000],
    // Broken grouping and non-numbers.
    ['1,2345', null],
    ['12,34', 12.34],
    ['1,23,4', null],
    ['1.234.56', null],
    ['1,234.567.8', null],
    ['1 23', null],
    ['1 234.567,8', null],
    ['NaN', null],
    ['Infinity', null],
    ['-Infinity', null],
    ['1e5', null],
    ['', null],
    ['abc', null],
    ['$', null],
    ['1,', null],
    ['12..5', null],
  ])('%j → %s', (raw, expected) => expect(parseAmount(raw)).toBe(expected));

  it.each([
    ['1,234', '.', 1234],
    ['1.234', '.', 1.234],
    ['1,234', ',', 1.234],
    ['1.234', ',', 1234],
    ['12,50', '.', 12.5],
    ['1,234.50', ',', 1234.5],
  ] as const)('%j with decimal %j → %s', (raw, decimal, expected) =>
    expect(parseAmount(raw, decimal)).toBe(expected),
  );

  it('says plainly how an ambiguous value was read', () => {
    expect(readAmount('1,234')).toEqual({
      value: 1234,
      ambiguous: expect.stringMatching(/"," was taken as a thousands separator/),
    });
    expect(readAmount('1,234.00')).toEqual({ value: 1234 });
    expect(readAmount('1.234', '.')).toEqual({ value: 1.234 });
  });

  it.each(['1,234', '1.234', '12,500', '999.999'])(
    'gives advice for %j that is read as the decimal it suggests',
    (raw) => {
      const advice = /write it as (\S+)$/.exec(readAmount(raw)!.ambiguous!)![1]!;
      expect(readAmount(advice)).toEqual({ value: Number(raw.replace(',', '.')) });
    },
  );
});

describe('readAmount with a currency symbol', () => {
  // '12.50 USD' never takes a fast path: its reading is the reference for '$12.50' and the like.
  const reference = (x: string, decimal?: DecimalSeparator) => readAmount(`${x} USD`, decimal);
  const decimal = fc.constantFrom<DecimalSeparator | undefined>(undefined, '.', ',');
  const symbol = fc.constantFrom('$', '€', '£', '¥', '₹');

  it('reads "$1,200.00"-like values as it reads them written with a currency code', () => {
    const grouped = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 25n }), fc.boolean(), fc.stringMatching(/^\d{1,2}$/))
      .map(([int, group, frac]) => `${group ? int.toLocaleString('en-US') : int}.${frac}`);
    fc.assert(
      fc.property(symbol, grouped, decimal, (sym, x, d) => {
        expect(readAmount(`${sym}${x}`, d)).toEqual(reference(x, d));
      }),
      { numRuns: 2500 },
    );
  });

  it('reads any digits and separators after a symbol as with a currency code', () => {
    fc.assert(
      fc.property(symbol, fc.stringMatching(/^[\d.,]{1,14}$/), decimal, (sym, x, d) => {
        expect(readAmount(`${sym}${x}`, d)).toEqual(reference(x, d));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['$1,200.00', 1200],
    ['$602.47', 602.47],
    ['€1,234,567.8', 1234567.8],
    ['$0.00', 0],
  ])('%j → %s', (raw, value) => expect(readAmount(raw)).toEqual({ value }));
});

describe('detectDecimalSeparator', () => {
  it.each([
    [['12.50', '1,234'], '.'],
    [['12,50', '1.234'], ','],
    [['1,234.56'], '.'],
    [['1.234,56'], ','],
    [['0,125'], ','],
    [['1,234', '1.234', '12'], null],
    [['12.50', '12,50'], null],
    [[], null],
  ] as const)('%j → %s', (samples, expected) => expect(detectDecimalSeparator(samples)).toBe(expected));
});

describe('amounts in a row', () => {
  const validate = (value: string, decimalSeparators = {}) =>
    createRowValidator({
      headers: ['email', 'value'],
      mappings: { email: 'email', value: 'value' },
      hardcoded: {
        event_name: 'Purchase',
        action_source: 'physical_store',
        currency: 'EUR',
        event_time: '2026-11-21',
      },
      settings: DEFAULT_FILE_SETTINGS,
      now: Date.UTC(2026, 10, 22) / 1000,
      decimalSeparators,
    })(['ann@example.com', value], 2);

  it('reports the reading of an ambiguous value as a correction', () => {
    const r = validate('1.234');
    expect(r.effectiveRow.value).toBe('1234');
    expect(r.corrections.find((c) => c.field === 'value')?.message).toMatch(
      /^value "1.234" read as 1234: the "." was taken as a thousands separator/,
    );
  });

  it('follows the column evidence', () =>
    expect(validate('1.234', { value: '.' }).effectiveRow.value).toBe('1.234'));

  it('writes the value as String() of the reading would, and a correction only for an ambiguous one', () => {
    // The general path the shortcuts in checkAmount stand for.
    const expected = (v: string, decimal: DecimalSeparator | undefined) => {
      const a = readAmount(v, decimal);
      if (!a) return { error: true };
      const n = /^(?:0|[1-9]\d{0,12})(?:\.\d?[1-9])?$/.test(v) ? v : String(a.value);
      // An equal number written differently is read, not corrected (issue 20): only a choice is reported.
      const message = a.ambiguous ? `value "${v}" read as ${n}: ${a.ambiguous}.` : undefined;
      return { value: n, message };
    };
    const unit = fc.constantFrom('0', '0', '1', '5', '9', '.', ',', '$', '€', ' ', '-', '(', ')', 'e');
    const value = fc.oneof(
      fc.string({ unit, minLength: 1, maxLength: 14 }),
      fc.string({ unit: fc.constantFrom('0', '1', '9', '.'), minLength: 1, maxLength: 20 }),
      fc
        .string({ unit: fc.constantFrom('0', '1', '9', ','), minLength: 1, maxLength: 12 })
        .map((s) => `$${s}.90`),
    );
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, '.', ','), (v, decimal) => {
        const r = validate(v, decimal ? { value: decimal } : {});
        const want = expected(v.trim(), decimal);
        expect(r.errors.some((e) => e.field === 'value')).toBe(Boolean(want.error));
        expect(r.effectiveRow.value).toBe(want.value);
        expect(r.corrections.find((c) => c.field === 'value')?.message).toBe(want.message);
      }),
      { numRuns: 700 },
    );
  });

  it('rejects broken grouping', () =>
    expect(validate('1,2345').errors[0]).toMatchObject({
      field: 'value',
      message: expect.stringMatching(/is not a number/),
    }));
});

describe('canonicalDigits', () => {
  it("is String() of readAmount's value whenever it gives a text", () => {
    const digit = fc.constantFrom('0', '0', '1', '5', '9');
    const digitRun = (max: number) => fc.string({ unit: digit, minLength: 1, maxLength: max });
    const plain = fc
      .tuple(digitRun(18), fc.option(fc.string({ unit: digit, maxLength: 8 })))
      .map(([int, frac]) => (frac === null ? int : `${int}.${frac}`));
    const symbol = fc
      .tuple(
        fc.constantFrom('$', '€', '£', '¥', '₹'),
        fc.oneof(
          digitRun(6),
          fc.array(digitRun(3), { minLength: 1, maxLength: 4 }).map((g) => g.join(',')),
        ),
        fc.string({ unit: digit, minLength: 1, maxLength: 2 }),
      )
      .map(([s, int, frac]) => `${s}${int}.${frac}`);
    const any = fc.string({ unit: fc.constantFrom('0', '1', '9', '.', ',', '$', '€', ' '), maxLength: 12 });
    fc.assert(
      fc.property(fc.oneof(plain, symbol, any), fc.constantFrom(undefined, '.', ','), (v, decimal) => {
        const digits = plainDigits(v);
        const text = digits === null ? null : canonicalDigits(digits);
        if (text === null) return;
        expect(text).toBe(String(readAmount(v, decimal)!.value));
      }),
      { numRuns: 8_000 },
    );
  });

  it('gives a text for the usual forms', () => {
    expect(canonicalDigits(plainDigits('$1,200.50')!)).toBe('1200.5');
    expect(canonicalDigits(plainDigits('0103.90')!)).toBe('103.9');
    expect(canonicalDigits(plainDigits('12.00')!)).toBe('12');
    expect(canonicalDigits(plainDigits('000.0')!)).toBe('0');
    expect(canonicalDigits(plainDigits('1234567890123456')!)).toBeNull();
  });
});

describe('usualAmount', () => {
  const general = (v: string) => {
    const digits = plainDigits(v);
    return digits === null ? null : canonicalDigits(digits);
  };

  it("gives the general path's text, or leaves the value to it", () => {
    const digit = fc.constantFrom('0', '0', '1', '5', '9');
    const digitRun = (min: number, max: number) => fc.string({ unit: digit, minLength: min, maxLength: max });
    const usual = fc
      .tuple(
        fc.constantFrom('', '', '$', '€', '£', '¥', '₹', 'A', '-'),
        fc.oneof(
          digitRun(0, 16),
          digitRun(12, 15), // around the 13 whole digits of a canonical amount
          fc.array(digitRun(1, 4), { minLength: 1, maxLength: 4 }).map((g) => g.join(',')),
        ),
        fc.constantFrom('.', '.', ',', ''),
        digitRun(0, 3),
      )
      .map(([s, int, point, frac]) => `${s}${int}${point}${frac}`);
    const any = fc.string({ unit: fc.constantFrom('0', '1', '9', '.', ',', '$', '€', ' '), maxLength: 12 });
    fc.assert(
      fc.property(fc.oneof(usual, any), (v) => {
        const text = usualAmount(v);
        if (text !== null) expect(text).toBe(general(v));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    ['425.81', '425.81'],
    ['425.80', '425.8'],
    ['425.00', '425'],
    ['$183.75', '183.75'],
    ['€1,582.20', '1582.2'],
    ['₹9,999.00', '9999'],
    ['1234567890123.45', '1234567890123.45'],
  ])('reads %j as %j', (v, text) => {
    expect(usualAmount(v)).toBe(text);
    expect(general(v)).toBe(text);
  });

  it.each([
    '0.50',
    '$0.50',
    '1,582.27',
    '$1,5820.27',
    '$12,34.56',
    '$1,234,567.00',
    '12.5',
    '12.345',
    '.50',
    '$.50',
  ])('leaves %j to the general path', (v) => expect(usualAmount(v)).toBeNull());
});
