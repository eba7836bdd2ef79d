import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoSeconds } from './iso-seconds.ts';

const viaDate = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

describe('isoSeconds', () => {
  it('writes what Date writes for whole seconds in any year 0000–9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200, max: 253_402_300_799 }), (s) => {
        expect(isoSeconds(s)).toBe(viaDate(s));
      }),
      { numRuns: 4_000 },
    );
  });

  it('writes what Date writes around today (the usual event times)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }), (s) => {
        expect(isoSeconds(s)).toBe(viaDate(s));
      }),
      { numRuns: 5_000 },
    );
  });

  it('is right at the edges: epoch, leap days, year and century ends', () => {
    for (const iso of [
      '1970-01-01T00:00:00Z',
      '1969-12-31T23:59:59Z',
      '2000-02-29T12:00:00Z',
      '1900-02-28T23:59:59Z',
      '1900-03-01T00:00:00Z',
      '2024-02-29T23:59:59Z',
      '2100-03-01T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '0000-02-29T00:00:00Z',
      '9999-12-31T23:59:59Z',
    ]) {
      const s = Date.parse(iso) / 1000;
      expect(isoSeconds(s)).toBe(iso);
    }
  });

  it('falls back to Date for fractions and years beyond 9999', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (s) => {
        expect(isoSeconds(s)).toBe(viaDate(s));
      }),
    );
    expect(isoSeconds(253_402_300_800)).toBe(viaDate(253_402_300_800));
    expect(isoSeconds(-62_167_219_201)).toBe(viaDate(-62_167_219_201));
  });
});
