import { describe, expect, it } from 'vitest';
import { sha256 } from '../hash/sha256.ts';
import { normalizeDateOfBirth } from './dates.ts';
import { normalizeEmail } from './email.ts';
import { normalizeCity, normalizeName } from './names.ts';
import { normalizeCountry, normalizeState, normalizeZip } from './places.ts';
import type { Normalized } from './result.ts';

const value = (r: Normalized) => (r.ok ? r.value : null);
const TODAY = { y: 2026, m: 3, d: 3 };

// Hashes quoted (abbreviated) in meta-capi.md §1.6 and normalization.md.
describe('documented hashes', () => {
  it.each([
    ['fn 정', value(normalizeName('정')), '8fa8cd9c', 'db14'],
    ['fn Valéry', value(normalizeName('Valéry')), '08e1996b', '149c'],
    ['fn Valéry typed decomposed', value(normalizeName('Vale\u0301ry')), '08e1996b', '149c'],
    ['db 2/16/1997', value(normalizeDateOfBirth('2/16/1997', 'MDY', TODAY)), '01acdbf6', '0f0c'],
    ['db 19970216', value(normalizeDateOfBirth('19970216', 'MDY', TODAY)), '01acdbf6', '0f0c'],
    [
      'db 1997-02-16T23:30:00-08:00',
      value(normalizeDateOfBirth('1997-02-16T23:30:00-08:00', 'MDY', TODAY)),
      '01acdbf6',
      '0f0c',
    ],
  ])('%s', (_what, normalized, head, tail) => {
    const h = sha256(normalized!);
    expect([h.slice(0, 8), h.slice(-4)]).toEqual([head, tail]);
  });
});

// normalization.md: lowercasing is the locale-free Unicode mapping, not case folding.
describe('case mapping', () => {
  it.each([
    ['Straße', 'straße'],
    ['STRASSE', 'strasse'],
    ['İpek', 'i\u0307pek'],
    ['ΟΔΥΣΣΕΥΣ', 'οδυσσευς'],
    ['Σοφία', 'σοφία'],
    ['ĲSSEL', 'ĳssel'],
  ])('name %j → %j', (raw, expected) => expect(value(normalizeName(raw))).toBe(expected));
  it.each([
    ['İstanbul', 'i\u0307stanbul'],
    ['Weißenfels', 'weißenfels'],
  ])('city %j → %j', (raw, expected) => expect(value(normalizeCity(raw))).toBe(expected));
});

// normalization.md's other worked inputs, each with what our rule makes of it.
describe('other examples in normalization.md', () => {
  const today = { y: 2026, m: 3, d: 3 };
  it.each([
    ['st', 'Washington, D.C.', value(normalizeState('Washington, D.C.')), 'dc'],
    ['st', 'District of Columbia', value(normalizeState('District of Columbia')), 'dc'],
    ['st', 'New South Wales', value(normalizeState('New South Wales')), 'newsouthwales'],
    ['st', 'Québec', value(normalizeState('Québec')), 'québec'],
    ['st', 'Bayern', value(normalizeState('Bayern')), 'bayern'],
    ['zp', '00-950', value(normalizeZip('00-950')), '00950'],
    ['zp', '01310-100', value(normalizeZip('01310-100')), '01310100'],
    ['zp', 'K1A 0B1', value(normalizeZip('K1A 0B1')), 'k1a0b1'],
    ['zp', '940251234', value(normalizeZip('940251234')), '94025'],
    ['country', 'Nederland', value(normalizeCountry('Nederland')), 'nl'],
    ['country', 'Dominican Rep.', value(normalizeCountry('Dominican Rep.')), 'do'],
    ['country', 'Atlantis', value(normalizeCountry('Atlantis')), null],
    ['db', '31011990', value(normalizeDateOfBirth('31011990', 'MDY', today)), '19900131'],
    ['db', '19900231', value(normalizeDateOfBirth('19900231', 'MDY', today)), null],
    // Numeric top-level domains: the SDK's verdict, as our rule keeps it where the libraries split.
    ['em', 'user@123.45.67.89', value(normalizeEmail('user@123.45.67.89')), null],
    ['em', 'john@example.c', value(normalizeEmail('john@example.c')), null],
  ])('%s %j', (_key, _raw, actual, expected) => expect(actual).toBe(expected));
});
