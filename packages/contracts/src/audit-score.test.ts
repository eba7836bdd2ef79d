import { describe, expect, it } from 'vitest';
import { auditScore, keysForStatements, parseLeaks } from './audit-score.ts';

describe('audit score (spec §4)', () => {
  it.each([
    [0, 0, 'red', "You're flying blind"],
    [1, 20, 'red', "You're flying blind"],
    [2, 40, 'red', "You're flying blind"],
    [3, 60, 'yellow', 'Some tracking in place'],
    [4, 80, 'yellow', 'Some tracking in place'],
    [5, 100, 'green', 'Excellent tracking hygiene'],
  ])('%i leaks fixed → %i, %s', (n, score, color, verdict) => {
    const keys = [
      'callTracking',
      'callToJobTracking',
      'offlineConversions',
      'revenueReporting',
      'campaignAttribution',
    ].slice(0, n);
    const r = auditScore(parseLeaks(keys.join(',')));
    expect(r).toMatchObject({ score, color, verdict });
    expect(r.costLine === null).toBe(n === 5);
  });

  it('trims entries and ignores empty, unknown and repeated ones', () => {
    expect(parseLeaks(' callTracking , ,revenueReporting,callTracking,bogus,')).toEqual([
      'callTracking',
      'revenueReporting',
    ]);
    expect(parseLeaks('')).toEqual([]);
    expect(parseLeaks(null)).toEqual([]);
  });

  it('maps ticked statements to keys', () => {
    expect(keysForStatements(['I can see which campaigns drive phone calls', 'nope'])).toEqual([
      'callTracking',
    ]);
  });
});
