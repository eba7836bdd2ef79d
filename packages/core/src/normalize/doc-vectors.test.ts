import { describe, expect, it } from 'vitest';
import { sha256 } from '../hash/sha256.ts';
import { normalizeDateOfBirth } from './dates.ts';
import { normalizeCity, normalizeName } from './names.ts';
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
