import { describe, expect, it } from 'vitest';
import { matchesGlob } from './glob.ts';

describe('matchesGlob', () => {
  it.each([
    ['*.csv', 'leads.csv', true],
    ['*.csv', 'LEADS.CSV', true],
    ['*.csv', 'leads.csv.part', false],
    ['*.csv', 'leadscsv', false],
    ['leads-??.csv', 'leads-01.csv', true],
    ['leads-??.csv', 'leads-1.csv', false],
    ['export_*', 'export_2026-01-01.txt', true],
    ['a+b (1).csv', 'a+b (1).csv', true],
    ['a+b (1).csv', 'aab (1).csv', false],
    ['[ab].csv', 'a.csv', false],
    ['*', '.hidden', true],
  ])('%s matches %s: %s', (pattern, name, expected) => {
    expect(matchesGlob(pattern, name)).toBe(expected);
  });
});
