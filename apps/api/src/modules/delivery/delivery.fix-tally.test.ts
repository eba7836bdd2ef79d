import { INSIGHT_FIX_GROUPS } from '@backsignal/contracts';
import { FIX_GROUPS, hasFixGroup } from '@backsignal/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tallyFixes } from './delivery.fix-tally.ts';

const event = (fixes?: number) => ({ event_name: 'Lead', event_id: 'x', json: '{}', fixes });

describe('tallyFixes', () => {
  it('counts the groups in the order the contracts name them', () => {
    expect([...FIX_GROUPS]).toEqual([...INSIGHT_FIX_GROUPS]);
  });

  it('counts, per group, the events with that group fixed', () => {
    expect(tallyFixes([event(0b1), event(0b101), event(0), event(0b1000_0000)])).toEqual([
      2, 0, 1, 0, 0, 0, 0, 1,
    ]);
    expect(tallyFixes([event(0), event(0)])).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('is null when no event came with a fix code', () => {
    expect(tallyFixes([])).toBeNull();
    expect(tallyFixes([event(), event()])).toBeNull();
    expect(tallyFixes([event(), event(0b10)])).toEqual([0, 1, 0, 0, 0, 0, 0, 0]);
  });

  it('agrees with hasFixGroup on any codes', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 50 }), (codes) => {
        const got = tallyFixes(codes.map(event));
        if (!codes.length) expect(got).toBeNull();
        else expect(got).toEqual(FIX_GROUPS.map((_, g) => codes.filter((c) => hasFixGroup(c, g)).length));
      }),
    );
  });
});
