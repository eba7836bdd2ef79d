import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digitsOnly, normalizePhone } from './phone.ts';

const value = (raw: string, country: string, rowCountry?: string) => {
  const r = normalizePhone(raw, country, rowCountry);
  return r.ok ? r.value : null;
};

describe('phone: trunk prefixes and impossible numbers', () => {
  it.each([
    // The trunk 0 goes before the country code is added.
    ['020 7946 0958', 'GB', '442079460958'],
    ['07911 123456', 'GB', '447911123456'],
    ['06 12 34 56 78', 'FR', '33612345678'],
    ['030 1234567', 'DE', '49301234567'],
    // A national 0 written after the country code is dropped.
    ['+44 020 7946 0958', 'US', '442079460958'],
    ['0044 020 7946 0958', 'US', '442079460958'],
    ['+33 06 12 34 56 78', 'US', '33612345678'],
    // Valid North American numbers.
    ['(201) 555-0123', 'US', '12015550123'],
    ['+1 201 555 0123', 'GB', '12015550123'],
    ['1 201 555 0123', 'US', '12015550123'],
    // Impossible numbers are dropped, never given a country code.
    ['0123456789', 'US', null],
    ['+1 000 000 0000', 'US', null],
    ['1111111111', 'US', null],
    ['11111111111', 'US', null],
    ['(123) 456-7890', 'US', null],
    ['(201) 123-4567', 'US', null],
    ['0000000000', 'GB', null],
    ['00 00 00 00 00', 'FR', null],
    ['+44 0000 000000', 'US', null],
    // Too short once its national 0 is gone (+49 30000): refused, so reading the result again agrees.
    ['4a.9030a.0a@a00a.a.aa', 'US', null],
  ])('%j (default %s) → %s', (raw, country, expected) => expect(value(raw, country)).toBe(expected));

  it('gives the same answer when its own result is read again (found by the property test)', () => {
    for (const raw of ['4a.9030a.0a@a00a.a.aa', '+49 030 0000', '+44 020 7946 0958', '(201) 555-0123']) {
      const once = normalizePhone(raw, 'US');
      if (once.ok) expect(normalizePhone(once.value, 'US')).toMatchObject({ ok: true, value: once.value });
    }
  });

  it('says it removed the national 0 after the country code', () => {
    expect(normalizePhone('+44 020 7946 0958', 'US')).toMatchObject({
      ok: true,
      note: expect.stringMatching(/national 0 after \+44/),
    });
  });
});

describe('phone: the default country', () => {
  it('is read in any case, and files with different countries do not mix', () => {
    for (let round = 0; round < 2; round++) {
      expect(value('020 7946 0958', 'gb')).toBe('442079460958');
      expect(value('(201) 555-0123', 'US')).toBe('12015550123');
      expect(value('020 7946 0958', 'GB')).toBe('442079460958');
    }
  });

  it('gives a national number no code when the country has none, and still reads international ones', () => {
    expect(normalizePhone('020 7946 0958', 'XX')).toEqual({
      ok: false,
      reason: 'is not a valid phone number for XX or any country code',
    });
    expect(value('+44 20 7946 0958', 'XX')).toBe('442079460958');
  });
});

describe('digitsOnly', () => {
  it('removes what /\\D/g removes', () => {
    const text = fc.oneof(
      fc.string(),
      fc.stringMatching(/^[\d\s().+-]{0,20}$/),
      fc.string({ unit: 'binary' }),
    );
    fc.assert(
      fc.property(text, (s) => {
        expect(digitsOnly(s)).toBe(s.replace(/\D/g, ''));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['(415) 555-1212', '4155551212'],
    ['4155551212', '4155551212'],
    ['+1 415 555 1212', '14155551212'],
    ['', ''],
    ['abc', ''],
    ['١٢٣', ''],
  ])('%j → %j', (s, digits) => expect(digitsOnly(s)).toBe(digits));
});

describe('phone: wide digits', () => {
  it.each([
    ['４１５５５５１２１２', '14155551212'],
    ['(٤١٥) ٥٥٥-١٢١٢', '14155551212'],
    ['+４４ ２０ ７９４６ ０９５８', '442079460958'],
  ])('%j → %j', (raw, expected) => expect(value(raw, 'US')).toBe(expected));
});

describe("a row's own country", () => {
  it('reads a national number in the row country first, then in the default country', () => {
    expect(normalizePhone('07400 123456', 'US', 'gb')).toEqual({
      ok: true,
      value: '447400123456',
      note: 'Added country code +44 to phone',
    });
    expect(value('06 12 34 56 78', 'US', 'fr')).toBe('33612345678');
    expect(value('020 123 4567', 'US', 'nl')).toBe('31201234567');
    expect(value('06 12345678', 'US', 'NL')).toBe('31612345678');
    // Not a British number: the file's default country reads it.
    expect(normalizePhone('(201) 555-0123', 'US', 'gb')).toEqual({
      ok: true,
      value: '12015550123',
      note: 'Added country code +1 to phone',
    });
    // Written internationally, the number's own code wins over both.
    expect(normalizePhone('+33 6 12 34 56 78', 'US', 'gb')).toEqual({ ok: true, value: '33612345678' });
  });

  it("reads a number written with its country code but no '+' as the row country's", () => {
    expect(normalizePhone('447400123456', 'US', 'gb')).toEqual({ ok: true, value: '447400123456' });
    expect(normalizePhone('33612345678', 'US', 'fr')).toEqual({ ok: true, value: '33612345678' });
  });

  it("takes a number without the row country's trunk prefix as the default country's first", () => {
    // "2015550123" is also a London number (+44 20 1555 0123), but British numbers are written with their 0.
    expect(value('2015550123', 'US', 'gb')).toBe('12015550123');
    // A US row in a British file: North American numbers have no trunk prefix to look for.
    expect(value('(201) 555-0123', 'GB', 'us')).toBe('12015550123');
    // A British number that lost its 0 and is nothing in the default country is still the row country's.
    expect(value('7400 123456', 'US', 'gb')).toBe('447400123456');
    // A country without a trunk prefix writes its numbers bare.
    expect(value('612 34 56 78', 'US', 'es')).toBe('34612345678');
  });

  it('names every country it tried when the number is valid in none', () => {
    // 07700 900xxx is the range Ofcom keeps for drama: no real phone has it.
    expect(normalizePhone('07700 900123', 'US', 'gb')).toEqual({
      ok: false,
      reason: 'is not a valid phone number for GB, US or any country code',
    });
    expect(normalizePhone('12345', 'US', 'us')).toEqual({
      ok: false,
      reason: 'is not a valid phone number for US or any country code',
    });
  });

  it('is the default country alone without a row country', () => {
    expect(normalizePhone('07400 123456', 'US')).toEqual({
      ok: false,
      reason: 'is not a valid phone number for US or any country code',
    });
    expect(value('07400 123456', 'GB', undefined)).toBe('447400123456');
  });
});
