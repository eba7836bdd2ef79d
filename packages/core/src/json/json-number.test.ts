import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CANONICAL_NUMBER, integerText, isCanonicalNumber } from './json-number.ts';

describe('isCanonicalNumber', () => {
  it('answers what CANONICAL_NUMBER answers, whatever the text', () => {
    // Mostly number-like text (digits, points, signs, exponents), where the loop decides most of it itself.
    const numberish = fc.string({ unit: fc.constantFrom(...'0123456789.-+e '.split('')), maxLength: 14 });
    fc.assert(
      fc.property(fc.oneof(numberish, fc.string(), fc.double().map(String)), (s) => {
        expect(isCanonicalNumber(s)).toBe(CANONICAL_NUMBER.test(s));
      }),
      { numRuns: 10_000 },
    );
  });

  it('knows the edges of the rule', () => {
    const yes = [
      '0',
      '7',
      '1795143620',
      '9999999999',
      '0.5',
      '183.75',
      '123456789.123456',
      '0.000001',
      '-0.5',
    ];
    const no = [
      '',
      '.',
      '5.',
      '.5',
      '07',
      '00.5',
      '10000000000',
      '1234567890.5',
      '0.1234567',
      '1.50',
      '1.0',
      '-0',
    ];
    for (const s of yes) expect([s, isCanonicalNumber(s)]).toEqual([s, true]);
    for (const s of no) expect([s, isCanonicalNumber(s)]).toEqual([s, false]);
    for (const s of [...yes, ...no]) expect(isCanonicalNumber(s)).toBe(CANONICAL_NUMBER.test(s));
  });
});

describe('integerText', () => {
  it('writes what String() writes, for any number', () => {
    const integers = fc.oneof(
      fc.integer({ min: 0, max: 0xffffffff }),
      fc.integer({ min: -5000, max: 5000 }),
      fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }),
    );
    fc.assert(
      fc.property(fc.oneof(integers, fc.double()), (n) => {
        expect(integerText(n)).toBe(String(n));
      }),
      { numRuns: 8_000 },
    );
  });

  it('keeps the zeros inside the number', () => {
    const cases = [
      0, 7, 999, 1000, 1001, 1010, 100_000, 1_795_000_007, 1_795_507_260, 0x7fffffff, 0x80000000,
    ];
    for (const n of cases) expect(integerText(n)).toBe(String(n));
    expect(integerText(-0)).toBe('0');
    expect(integerText(1000.5)).toBe('1000.5');
  });
});
