import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CANONICAL_NUMBER, isCanonicalNumber } from './json-number.ts';

describe('isCanonicalNumber', () => {
  it('answers what CANONICAL_NUMBER answers, whatever the text', () => {
    // Mostly number-like text (digits, points, signs, exponents), where the loop decides most of it itself.
    const numberish = fc.string({ unit: fc.constantFrom(...'0123456789.-+e '.split('')), maxLength: 14 });
    fc.assert(
      fc.property(fc.oneof(numberish, fc.string(), fc.double().map(String)), (s) => {
        expect(isCanonicalNumber(s)).toBe(CANONICAL_NUMBER.test(s));
      }),
      { numRuns: 20_000 },
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
