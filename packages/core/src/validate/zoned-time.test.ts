import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatter, zonedToEpochMs } from './zoned-time.ts';

// The offset read from Intl, without the per-hour memo.
function wallClock(zone: string, ms: number): number[] {
  const parts = formatter(zone).formatToParts(ms);
  return ['year', 'month', 'day', 'hour', 'minute', 'second'].map((t) =>
    Number(parts.find((p) => p.type === t)!.value),
  );
}
function offset(zone: string, ms: number): number {
  const [y, mo, d, h, mi, s] = wallClock(zone, ms) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s) - Math.floor(ms / 1000) * 1000;
}
/**
 * The reference, by search: every offset the zone has within a day and a half of the time, hour by hour. The
 * instants whose wall clock is the time written: the earliest of them; none (clocks skipped it): the time read
 * with the offset in force before the skip (Temporal's "compatible").
 */
function reference(zone: string, y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  const offsets = new Set<number>();
  for (let t = guess - 36 * HOUR; t <= guess + 36 * HOUR; t += HOUR) offsets.add(offset(zone, t));
  const readings = [...offsets].map((o) => guess - o).filter((t) => guess - offset(zone, t) === t);
  if (readings.length) return Math.min(...readings);
  return guess - offset(zone, Math.min(...[...offsets].map((o) => guess - o)));
}

// Zones with DST at odd hours, half-hour shifts, quarter-hour offsets, local mean time before 1900, and
// offsets changed twice in a year.
const ZONES = [
  'America/New_York',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Europe/Dublin',
  'Africa/Casablanca',
  'America/Sao_Paulo',
];
const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Instants where the zone's offset changes between 1880 and 2040 (steps of two days, then bisected). */
function transitions(zone: string): number[] {
  const found: number[] = [];
  let t = Date.UTC(1880, 0, 1);
  let before = offset(zone, t);
  for (const end = Date.UTC(2040, 0, 1); t < end; t += 2 * DAY) {
    const after = offset(zone, t + 2 * DAY);
    if (after === before) continue;
    let [lo, hi] = [t, t + 2 * DAY];
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (offset(zone, mid) === before) lo = mid;
      else hi = mid;
    }
    found.push(hi);
    before = after;
  }
  return found;
}

describe('zonedToEpochMs', () => {
  it.each(ZONES)('%s: reads wall times around every offset change as Intl does', (zone) => {
    const changes = transitions(zone);
    expect(changes.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(
        fc.constantFrom(...changes),
        fc.integer({ min: -3 * 3600, max: 3 * 3600 }),
        (change, shift) => {
          const [y, mo, d, h, mi, s] = wallClock(zone, change + shift * 1000) as [
            number,
            number,
            number,
            number,
            number,
            number,
          ];
          expect(zonedToEpochMs(zone, y, mo, d, h, mi, s)).toBe(reference(zone, y, mo, d, h, mi, s));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads any wall time as Intl does, in any zone', () => {
    const zones = Intl.supportedValuesOf('timeZone');
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 1850, max: 2100 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 59 }),
        (zone, y, mo, d, h, mi, s) => {
          expect(zonedToEpochMs(zone, y, mo, d, h, mi, s)).toBe(reference(zone, y, mo, d, h, mi, s));
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each([
    // Spring forward: 02:30 does not exist; it is read as 03:30 in the new offset, in the east and the west.
    ['America/New_York', [2026, 3, 8, 2, 30], '2026-03-08T07:30:00.000Z'],
    ['Europe/Berlin', [2026, 3, 29, 2, 30], '2026-03-29T01:30:00.000Z'],
    // Fall back: 01:30 (New York) and 02:30 (Berlin) happen twice; the first is meant.
    ['America/New_York', [2026, 11, 1, 1, 30], '2026-11-01T05:30:00.000Z'],
    ['Europe/Berlin', [2026, 10, 25, 2, 30], '2026-10-25T00:30:00.000Z'],
  ])('reads a skipped or repeated time in %s the same way everywhere', (zone, [y, mo, d, h, mi], iso) =>
    expect(new Date(zonedToEpochMs(zone, y!, mo!, d!, h!, mi!, 0)).toISOString()).toBe(iso),
  );

  it('keeps the UTC shortcut', () =>
    expect(zonedToEpochMs('UTC', 2026, 7, 4, 12, 0, 0)).toBe(Date.UTC(2026, 6, 4, 12)));
});
