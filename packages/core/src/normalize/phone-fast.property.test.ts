import fc from 'fast-check';
import examples from 'libphonenumber-js/examples.mobile.json' with { type: 'json' };
import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { describe, expect, it } from 'vitest';
import { fastInternational, fastNational, fastNationalInvalid } from './phone-fast.ts';
import { normalizePhone } from './phone.ts';

const countries = Object.keys(examples) as CountryCode[];
/** A country's example mobile with its last digits changed, written with or without a trunk 0 or noise. */
const nationalNumber = fc
  .record({
    country: fc.constantFrom(...countries),
    tail: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 0, maxLength: 5 }),
    cut: fc.integer({ min: -1, max: 1 }),
    prefix: fc.constantFrom('', '', '0', '00', '1', '8'),
  })
  .map(({ country, tail, cut, prefix }) => {
    const example = (examples as Record<string, string>)[country]!;
    const keep = Math.max(0, example.length - tail.length - cut);
    return { country, digits: prefix + example.slice(0, keep) + tail.join('') };
  });

describe('phone fast path answers what libphonenumber answers', () => {
  it('international numbers: valid with the same E.164 and calling code, or left to the library', () => {
    let hits = 0;
    fc.assert(
      fc.property(nationalNumber, ({ country, digits }) => {
        const written = getCountryCallingCode(country) + digits;
        const fast = fastInternational(written);
        if (!fast) return;
        hits++;
        const parsed = parsePhoneNumberFromString(`+${written}`);
        expect(parsed?.isValid(), written).toBe(true);
        expect(parsed!.number.slice(1)).toBe(fast.e164);
        expect(parsed!.countryCallingCode).toBe(fast.code);
      }),
      { numRuns: 1500 },
    );
    // The property is only worth something if the fast path answers a good share of these. Over 20 seeds it
    // answered 306-367 of 1500 (mean 340, sd 15); 200 is 9 sd below, so only a real loss of coverage fails.
    expect(hits).toBeGreaterThan(200);
  });

  it('national numbers in the default country: the same answer, or left to the library', () => {
    let hits = 0;
    fc.assert(
      fc.property(nationalNumber, ({ country, digits }) => {
        const fast = fastNational(digits, country);
        if (!fast) return;
        hits++;
        const parsed = parsePhoneNumberFromString(digits, country);
        expect(parsed?.isValid(), `${country} ${digits}`).toBe(true);
        expect(parsed!.number.slice(1)).toBe(fast.e164);
        expect(parsed!.countryCallingCode).toBe(fast.code);
      }),
      { numRuns: 1500 },
    );
    // 298-350 of 1500 over 20 seeds; see above.
    expect(hits).toBeGreaterThan(200);
  });

  it('covers the usual European and UK forms', () => {
    expect(fastInternational('442079460123')).toEqual({ e164: '442079460123', code: '44' });
    expect(fastInternational('4402079460123')).toEqual({ e164: '442079460123', code: '44' });
    expect(fastNational('02079460123', 'GB')).toEqual({ e164: '442079460123', code: '44' });
    expect(fastInternational('4915123456789')).toEqual({ e164: '4915123456789', code: '49' });
    expect(normalizePhone('+44 020 7946 0123', 'US')).toEqual(normalizePhone('+44 020 7946 0123', 'US'));
    expect(normalizePhone('+44 020 7946 0123', 'US')).toMatchObject({
      ok: true,
      value: '442079460123',
      note: 'Removed the national 0 after +44 in the phone',
    });
  });
});

describe('phone fast path: certainly invalid', () => {
  it('says a national number is invalid only when the library says so', () => {
    let hits = 0;
    const anyCountry = fc.constantFrom(...countries);
    fc.assert(
      fc.property(nationalNumber, anyCountry, ({ digits }, country) => {
        // Numbers of one country read in another: the usual case of a row country that is not the phone's.
        if (!fastNationalInvalid(digits, country)) return;
        hits++;
        expect(parsePhoneNumberFromString(digits, country)?.isValid() ?? false, `${country} ${digits}`).toBe(
          false,
        );
      }),
      { numRuns: 1500 },
    );
    expect(hits).toBeGreaterThan(200);
    // A North American number in a French row is ruled out without the library.
    expect(fastNationalInvalid('2015550123', 'FR')).toBe(true);
    expect(fastNationalInvalid('0612345678', 'FR')).toBe(false);
    // A +1 340 number is not the US's but is valid in a US row: the library reads it as the Virgin Islands'.
    expect(fastNationalInvalid('3406421234', 'US')).toBe(false);
  });
});
