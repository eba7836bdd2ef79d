import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256 } from '../hash/sha256.ts';
import { normalizeDateOfBirth } from './dates.ts';
import { isValidEmail, normalizeEmail } from './email.ts';
import { normalizeCity, normalizeExternalId, normalizeGender, normalizeName } from './names.ts';
import { normalizePhone } from './phone.ts';
import { normalizeCountry, normalizeState, normalizeZip } from './places.ts';
import { alreadyHashed, EMPTY_SHA256, trimmed, type Normalized } from './result.ts';

const value = (r: Normalized) => (r.ok ? r.value : null);

describe("Meta's documented test vectors", () => {
  it.each([
    [
      'em',
      value(normalizeEmail('John_Smith@gmail.com')),
      '62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f',
    ],
    [
      'ph',
      value(normalizePhone('(650)555-1212', 'US')),
      'e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176',
    ],
    ['fn', value(normalizeName('Mary')), '6915771be1c5aa0c886870b6951b03d7eafc121fea0e80a5ea83beb7c449f4ec'],
    [
      'country',
      value(normalizeCountry('United States')),
      '79adb2a2fce5c6ba215fe5f27f532d4e7edbac4b6a5e09e1ef3a08084a904621',
    ],
  ])('%s', (_k, normalized, digest) => expect(sha256(normalized!)).toBe(digest));

  it('keeps accents in NFC form (Valéry, typed precomposed or decomposed)', () => {
    expect(value(normalizeName('Valéry'))).toBe('valéry');
    expect(value(normalizeName('Vale\u0301ry'))).toBe('valéry');
    expect(sha256(value(normalizeName('Valéry'))!).startsWith('08e1996b')).toBe(true);
  });

  it('keeps non-Latin names', () => expect(value(normalizeName('정'))).toBe('정'));
  it('formats a date of birth as YYYYMMDD', () =>
    expect(value(normalizeDateOfBirth('2/16/1997', 'MDY', 2026))).toBe('19970216'));
});

describe('email', () => {
  it.each([
    [' John_Smith@Gmail.com ', 'john_smith@gmail.com'],
    ['mailto:ann@example.com', 'ann@example.com'],
    ['Ann Lee <ann@example.com>', 'ann@example.com'],
    ['"ann@example.com"', 'ann@example.com'],
    ['ann@example.com.', 'ann@example.com'],
    ['ann@example.com; bob@example.com', 'ann@example.com'],
    ['a\u200B@example.com', 'a@example.com'],
    ['first.last+tag@sub.example.co.uk', 'first.last+tag@sub.example.co.uk'],
  ])('%j → %s', (raw, out) => expect(value(normalizeEmail(raw))).toBe(out));

  it.each([
    '',
    '   ',
    'nope',
    'a@b',
    'a@@b.com',
    'a..b@example.com',
    'jöhn@example.com',
    'john@example.c',
    `${'x'.repeat(65)}@example.com`,
  ])('%j is unusable', (raw) => expect(normalizeEmail(raw).ok).toBe(false));

  it('reports clean-ups but not routine lowercasing', () => {
    expect(normalizeEmail('Ann@Example.com')).toEqual({ ok: true, value: 'ann@example.com' });
    expect(normalizeEmail('mailto:ann@example.com')).toMatchObject({
      note: expect.stringContaining('mailto'),
    });
  });
});

describe('phone', () => {
  it.each([
    ['(650)555-1212', 'US', '16505551212'],
    ['650.555.1212', 'US', '16505551212'],
    ['16505551212', 'US', '16505551212'],
    ['+1 650 555 1212', 'US', '16505551212'],
    ['+44 (0)20 7946 0958', 'US', '442079460958'],
    ['0044 20 7946 0958', 'US', '442079460958'],
    ['011 44 20 7946 0958', 'US', '442079460958'],
    ['020 7946 0958', 'GB', '442079460958'],
    ['01 23 45 67 89', 'FR', '33123456789'],
    ['(650) 555-1212 ext. 42', 'US', '16505551212'],
    ['650-555-1212 x123', 'US', '16505551212'],
    ['650-555-1212 x.5', 'US', '16505551212'],
    ['650-555-1212 extn 5', 'US', '16505551212'],
    ['650-555-1212 ext:5', 'US', '16505551212'],
    ['650-555-1212 #5', 'US', '16505551212'],
    ['650 555 1212 (ext 5)', 'US', '16505551212'],
    ['650-555-1212 ext 1234567', 'US', '16505551212'],
    ['+1 650 555 1212 p123', 'US', '16505551212'],
    ['650-555-1212,123', 'US', '16505551212'],
    ['tel:+1-650-555-1212;ext=12', 'US', '16505551212'],
    ['+52 1 55 1234 5678', 'US', '525512345678'],
    ['+521 33 1234 5678', 'US', '523312345678'],
    ['+52 55 1234 5678', 'US', '525512345678'],
    ['6505551212.0', 'US', '16505551212'],
    ['tel:+16505551212', 'US', '16505551212'],
    ['６５０５５５１２１２', 'US', '16505551212'],
  ])('%j (default %s) → %s', (raw, country, out) => expect(value(normalizePhone(raw, country))).toBe(out));

  it('says when it added the country code', () => {
    expect(normalizePhone('(650)555-1212', 'US')).toMatchObject({ note: 'Added country code +1 to phone' });
    expect(normalizePhone('+16505551212', 'US')).toEqual({ ok: true, value: '16505551212' });
    expect(normalizePhone('+52 1 55 1234 5678', 'US')).toMatchObject({
      note: 'Removed the old mobile 1 after +52 in the phone',
    });
  });

  it.each([
    '1.65056E+10',
    '0000000',
    '123',
    '+1234',
    'call me',
    '',
    '+1234567890123456789',
    '+1 000 000 000',
    '+44 12',
  ])('%j is unusable', (raw) => expect(normalizePhone(raw, 'US').ok).toBe(false));
});

describe('names, city, gender, external id', () => {
  it.each([
    ["O'Brien", 'obrien'],
    ['Jean-Luc', 'jeanluc'],
    ['Mary Ann', 'maryann'],
    ['Jr.', 'jr'],
    ['O’Brien', 'obrien'],
    ['Smith–Jones', 'smithjones'],
  ])('name %j → %s', (raw, out) => expect(value(normalizeName(raw))).toBe(out));
  it.each(['-', '.', '   ', "'"])('name %j is unusable', (raw) => expect(normalizeName(raw).ok).toBe(false));

  it.each([
    ['San Francisco', 'sanfrancisco'],
    ['New York', 'newyork'],
    ['São Paulo', 'sãopaulo'],
    ["O'Fallon", 'ofallon'],
    ['Paris 16', 'paris'],
    ['北京', '北京'],
  ])('city %j → %s', (raw, out) => expect(value(normalizeCity(raw))).toBe(out));
  it.each(['123', '-', '.'])('city %j is unusable', (raw) => expect(normalizeCity(raw).ok).toBe(false));

  it.each([
    ['F', 'f'],
    ['female', 'f'],
    ['F.', 'f'],
    ['Male', 'm'],
    ['m', 'm'],
  ])('gender %j → %s', (raw, out) => expect(value(normalizeGender(raw))).toBe(out));
  it.each(['Other', 'Non-binary', 'U', 'X', '0', '1'])('gender %j is unusable', (raw) =>
    expect(normalizeGender(raw).ok).toBe(false),
  );

  it('external id is trimmed and lowercased', () =>
    expect(value(normalizeExternalId('  CRM-00123 '))).toBe('crm-00123'));
  // Hashed and sent, a placeholder would be one customer id shared by every row that has it.
  it.each(['N/A', 'null', 'none', 'unknown', '-', '#N/A'])('external id %j is a placeholder', (raw) =>
    expect(normalizeExternalId(raw)).toEqual({ ok: false, reason: 'is a placeholder, not a customer id' }),
  );
  it.each(['0', 'na-001', 'nan7', 'Unknown Pleasures'])('external id %j is an id', (raw) =>
    expect(value(normalizeExternalId(raw))).toBe(raw.toLowerCase()),
  );
});

describe('state, zip, country', () => {
  it.each([
    ['California', 'ca'],
    ['CA', 'ca'],
    ['az', 'az'],
    ['District of Columbia', 'dc'],
    ['Puerto Rico', 'pr'],
    ['Commonwealth of Puerto Rico', 'pr'],
    ['Virgin Islands, U.S.', 'vi'],
    ['United States Minor Outlying Islands', 'um'],
    ['Federated States of Micronesia', 'fm'],
    ['Marshall Islands', 'mh'],
    ['Palau', 'pw'],
    ['New York', 'ny'],
    ['Bayern', 'bayern'],
    ['Constructor', 'constructor'],
    ['Île-de-France', 'îledefrance'],
  ])('state %j → %s', (raw, out) => expect(value(normalizeState(raw))).toBe(out));

  it.each([
    ['94035', '94035'],
    ['94035-1234', '94035'],
    ['940351234', '94035'],
    ['94035 1234', '94035'],
    ['94025.0', '94025'],
    ['M1 1AE', 'm11ae'],
    ['SW1A-1AA', 'sw1a1aa'],
    ['100-0001', '1000001'],
    ['1987', '1987'],
    ['75018', '75018'],
  ])('zip %j → %s', (raw, out) => expect(value(normalizeZip(raw))).toBe(out));
  it.each(['N/A', '', '-', '1'])('zip %j is unusable', (raw) => expect(normalizeZip(raw).ok).toBe(false));

  it.each([
    ['us', 'us'],
    ['US', 'us'],
    ['United States', 'us'],
    ['USA', 'us'],
    ['U.S.', 'us'],
    ['United Kingdom', 'gb'],
    ['UK', 'gb'],
    ['England', 'gb'],
    ['Germany', 'de'],
    ['DEU', 'de'],
    ['France', 'fr'],
    ['Canada', 'ca'],
    ['Holland', 'nl'],
  ])('country %j → %s', (raw, out) => expect(value(normalizeCountry(raw))).toBe(out));
  it.each(['Atlantis', 'N/A', 'XX', 'EU', ''])('country %j is unusable', (raw) =>
    expect(normalizeCountry(raw).ok).toBe(false),
  );
});

describe('date of birth', () => {
  it.each([
    ['1990-01-31', '19900131'],
    ['1990-01-31T23:30:00-08:00', '19900131'],
    ['01/31/1990', '19900131'],
    ['31/01/1990', '19900131'],
    ['31.01.1990', '19900131'],
    ['05.02.1997', '19970205'],
    ['19900131', '19900131'],
    ['01311990', '19900131'],
    ['Jan 31, 1990', '19900131'],
    ['31 janvier 1990', '19900131'],
    ['2000-02-29', '20000229'],
    ['1900-01-01', '19000101'],
    ['01/02/1990', '19900102'],
    // ISO 8601 basic format with a time
    ['19970216T233000Z', '19970216'],
    ['19970216 000000', '19970216'],
    ['19970216T23:30:00-08:00', '19970216'],
    ['19970216T2330', '19970216'],
    // month names followed by a time
    ['Feb 16, 1997 12:00 AM', '19970216'],
    ['February 16, 1997 at 11:30 PM', '19970216'],
    ['Sat, 16 Feb 1997 00:00:00 GMT', '19970216'],
    // French abbreviations
    ['16 févr. 1997', '19970216'],
    ['16 janv. 1997', '19970116'],
    ['16 avr. 1997', '19970416'],
    ['16 juil. 1997', '19970716'],
    ['16 déc. 1997', '19971216'],
  ])('%j → %s', (raw, out) => expect(value(normalizeDateOfBirth(raw, 'MDY', 2026))).toBe(out));

  it('reads ambiguous dates day first when the file says so', () =>
    expect(value(normalizeDateOfBirth('01/02/1990', 'DMY', 2026))).toBe('19900201'));

  it.each([
    '1899-12-31',
    '2030-01-01',
    '0000-00-00',
    '1990-13-01',
    '1990',
    '1990-05',
    '01/02/90',
    '1990-02-30',
    '2001-02-29',
    'Feb 16, 1997 25:00',
    '19970216T233',
  ])('%j is unusable', (raw) => expect(normalizeDateOfBirth(raw, 'MDY', 2026).ok).toBe(false));
});

describe('trimmed', () => {
  it('trims what String.prototype.trim trims', () => {
    const unit = fc.constantFrom(
      'a',
      ' ',
      '\t',
      '\n',
      '\r',
      '\u000b',
      '\u0001',
      '\u007f',
      '\u0085',
      '\u00a0',
      '\u1680',
      '\u2000',
      '\u200b',
      '\u2028',
      '\u3000',
      '\ufeff',
      'é',
      '~',
      '!',
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit, maxLength: 6 })),
        (s) => {
          expect(trimmed(s)).toBe(s.trim());
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('isValidEmail', () => {
  // The definition: the local part before the last '@' and the domain after it, each checked on its own.
  const LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
  const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]$/;
  const reference = (v: string) => {
    const at = v.lastIndexOf('@');
    if (v.length > 254 || at < 1) return false;
    const local = v.slice(0, at);
    return local.length <= 64 && LOCAL.test(local) && DOMAIN.test(v.slice(at + 1));
  };

  it('agrees with checking the local part and the domain separately', () => {
    const unit = fc.constantFrom(...'ab9.-_+@"<> ,;:\'é'.split(''), 'x'.repeat(30));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.emailAddress(),
          fc.emailAddress().map((e) => e.toUpperCase()),
          fc.string({ unit, maxLength: 12 }),
        ),
        (v) => {
          expect(isValidEmail(v)).toBe(reference(v));
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

describe('already hashed values', () => {
  it('passes a SHA-256 through lowercased, never hashing it again', () => {
    const h = sha256('ann@example.com');
    expect(alreadyHashed(h.toUpperCase())).toEqual({ ok: true, value: h });
    expect(alreadyHashed('ann@example.com')).toBeNull();
  });
  it('refuses the hash of an empty string', () => expect(alreadyHashed(EMPTY_SHA256)!.ok).toBe(false));
  it('does not take a 32-hex id (MD5-like, dash-less UUID) as a hash', () =>
    expect(alreadyHashed('0123456789abcdef0123456789abcdef')).toBeNull());
});

describe('properties', () => {
  const normalizers: [string, (s: string) => Normalized][] = [
    ['email', normalizeEmail],
    ['phone', (s) => normalizePhone(s, 'US')],
    ['name', normalizeName],
    ['city', normalizeCity],
    ['state', normalizeState],
    ['zip', normalizeZip],
    ['country', normalizeCountry],
    ['gender', normalizeGender],
    ['external id', normalizeExternalId],
    ['date of birth', (s) => normalizeDateOfBirth(s, 'MDY', 2026)],
  ];
  it.each(normalizers)('%s never throws and is idempotent', (name, f) => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.emailAddress(),
          fc.stringMatching(/^[+(]?\d[\d ().-]{5,14}$/),
        ),
        (s) => {
          const once = f(s);
          if (once.ok) {
            // A phone's output is E.164 without the '+' (Meta's format); read back, it is an international number.
            const twice = f(name === 'phone' ? `+${once.value}` : once.value);
            expect(twice.ok).toBe(true);
            expect(twice.ok && twice.value).toBe(once.value);
            expect(once.value).not.toBe('');
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
