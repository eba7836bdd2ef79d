import { describe, expect, it } from 'vitest';
import { normalizeCity, normalizeName } from './names.ts';
import { normalizeState, normalizeZip } from './places.ts';
import type { Normalized } from './result.ts';

const value = (r: Normalized) => (r.ok ? r.value : null);
const PLACEHOLDERS = [
  'N/A',
  'n/a',
  'N.A.',
  '#N/A',
  'NA',
  'none',
  'None',
  'NULL',
  'unknown',
  'Unknown',
  'UNK',
  'undefined',
  'not applicable',
  'Not Available',
  'TBD',
  '-',
  '--',
  '?',
  '.',
  'n / a',
];

describe('placeholders are never hashed', () => {
  it.each(PLACEHOLDERS)('%j is unusable as state, city and zip', (raw) => {
    expect([value(normalizeState(raw)), value(normalizeCity(raw)), value(normalizeZip(raw))]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it.each(PLACEHOLDERS.filter((p) => p !== 'NA'))('%j is unusable as a name', (raw) =>
    expect(value(normalizeName(raw))).toBeNull(),
  );

  // Found by the idempotency property: these were read as the words "unknown", "none" and "null" and hashed.
  it.each(['unknown?', '-none-', '(null)', '"N/A"!'])(
    '%j, a placeholder in punctuation, is unusable as state, city, zip and name',
    (raw) => {
      expect([
        value(normalizeState(raw)),
        value(normalizeCity(raw)),
        value(normalizeZip(raw)),
        value(normalizeName(raw)),
      ]).toEqual([null, null, null, null]);
    },
  );

  it.each([
    ['Na', 'na'],
    ['NA', 'na'],
    ['Noneman', 'noneman'],
    ['Nan', 'nan'],
    ['Nil', 'nil'],
    ['Blank', 'blank'],
    ['NaN', null],
    ['Null', null],
    ['None', null],
    ['Empty', null],
    ['N.A.', null],
  ])('name %j → %s (names that are also placeholder words are kept)', (raw, expected) =>
    expect(value(normalizeName(raw))).toBe(expected),
  );

  it.each([
    ['Unknown City', 'unknowncity'],
    ['Nanaimo', 'nanaimo'],
    ['Nome', 'nome'],
    ['Nan', 'nan'],
    ['NaN', null],
    ['NA', null],
  ])('city %j → %s', (raw, expected) => expect(value(normalizeCity(raw))).toBe(expected));
});

describe('zip', () => {
  it.each([
    ['94025 - 1234', '94025'],
    ['94025 -1234', '94025'],
    ['94025–1234', '94025'],
    ['94025-1234', '94025'],
    ['94025 1234', '94025'],
    ['940251234', '94025'],
    ['94025', '94025'],
    ['SW1A 1AA', 'sw1a1aa'],
    ['100-0001', '1000001'],
    // other dashes, as word processors and spreadsheets write them
    ['94025—1234', '94025'],
    ['94025\u22121234', '94025'],
    ['SW1A\u20111AA', 'sw1a1aa'],
    ['SW1A–1AA', 'sw1a1aa'],
    ['100–0001', '1000001'],
    ['00\u2212950', '00950'],
  ])('%j → %s', (raw, expected) => expect(value(normalizeZip(raw))).toBe(expected));
});
